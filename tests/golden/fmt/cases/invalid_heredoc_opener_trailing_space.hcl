a = <<EOT  
x
EOT
