plain   = "hello"
escapes = "tab\tquote\"back\\uni\u00e9$${lit}%%{lit}"
interp  = "Hello, ${name}!"
wrap    = "${value}"
strip   = "a ${~ b ~} c"
ifelse  = "%{ if on }yes%{ else }no%{ endif }"
loop    = "%{ for k, v in m ~}${k}=${v} %{~ endfor }"
heredoc = <<EOT
Line one ${x}
  Line two
EOT
flush = <<-EOT
    indented ${y}
      more
    EOT
