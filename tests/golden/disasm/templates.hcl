interp = "Hello, ${name}!"
wrap   = "${name}"
if     = "%{if flag}yes%{else}no%{endif}"
for    = "%{for x in xs}${x},%{endfor}"
heredoc = <<EOT
line ${a}
EOT
