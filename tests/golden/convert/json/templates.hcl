# Templates stay templates: literal "${" and "%{" are escaped, directives
# are rebuilt from their parts, strip markers and heredoc indentation are
# already applied.
plain     = "hello"
escaped   = "cost: $${price} and %%{tag}"
quoted    = "say \"hi\"\n\ttab \\ backslash"
interp    = "Hello, ${var.name}!"
wrap      = "${var.name}"
cond      = "x%{ if var.on ~} on ${var.a} %{~ else } off %{ endif }y"
loop      = "%{for k, v in var.m}${k}=${v},%{endfor}"
loop1     = "%{ for v in var.l ~}[${v}]%{ endfor ~}"
dollar    = "a$ ${~var.x}"
percent   = "a% %{~ if true}b%{ endif }"
nested    = "outer ${upper("inner ${var.x}")} end"
heredoc   = <<-EOT
    line one ${var.x}
      indented $${not}
    EOT
unicode   = "héllo ✓ <&>"
