variable "n" {
  default = 2
}
resource "terraform_data" "c" {
  count = var.n
  input = "item-${count.index}"
}
resource "terraform_data" "f" {
  for_each = toset(["a", "b"])
  input    = "${each.key}=${each.value}"
}
resource "terraform_data" "m" {
  for_each = { x = 1, y = 2 }
  input    = each.value
}
resource "terraform_data" "single" {
  input = terraform_data.c[0].output
}
data "terraform_remote_state" "d" {
  count   = 1
  backend = "local"
}
locals {
  ids = terraform_data.c[*].id
  fmap = { for k, v in terraform_data.f : k => v.input }
}
output "c0" {
  value = terraform_data.c[0].input
}
