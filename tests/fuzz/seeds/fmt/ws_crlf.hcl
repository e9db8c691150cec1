a = 1 
blk { # c
  bbb = 2
  h = <<EOT
  x
EOT
}
