# Deliberate syntax error: list items need commas between them.
locals {
  regions  = ["eu-west-1" "us-east-1"]
  greeting = "hello, ${var.name}!"
}
