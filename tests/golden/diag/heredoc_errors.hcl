a = <<EOT
${b c}
EOT
d = <<-EOT
  %{ if x }
  EOT
