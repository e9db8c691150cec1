a = <<EOT
  x =   1
    y
