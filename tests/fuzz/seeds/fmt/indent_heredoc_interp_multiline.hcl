blk {
x = <<EOT
head ${
  foo(
    1)
}
tail
EOT
}
