resource "null_resource" "n" {}
locals {
  x = 1
}
