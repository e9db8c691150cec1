a = <<EOT
x = 1
  y
EOT
bbbb = 2
cc = <<-EOT
    z
    EOT
d = 3
