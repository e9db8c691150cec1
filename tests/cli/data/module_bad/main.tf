variable "a" {}
variable "a" {}
locals {
  x = var.nope
}
