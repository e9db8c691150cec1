0locals {
  doc = <<-EOT
    hello ${name}
    %{ for x in xs ~}
    - ${x}
    %{ endfor ~}
  EOT
}
