a = 1
a = 2
b = <<EOT
never closed
