# Heredocs written in place are refused like quoted templates: one without
# template sequences as a literal template, one with them as a template.
locals {
  literal = templatestring(<<EOT
plain text
EOT
  , {})
  template = templatestring(<<-EOT
    Hi ${upper("x")}
  EOT
  , {})
  fine = 1
}
