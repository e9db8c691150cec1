variable "unknown_n" {
  type = number
}
variable "secret_set" {
  type      = set(string)
  default   = ["a"]
  sensitive = true
}
resource "terraform_data" "neg" {
  count = -1
}
resource "terraform_data" "frac" {
  count = 1.5
}
resource "terraform_data" "str" {
  count = "two"
}
resource "terraform_data" "strnum" {
  count = "2"
}
resource "terraform_data" "nul" {
  count = null
}
resource "terraform_data" "unk" {
  count = var.unknown_n
}
resource "terraform_data" "list" {
  for_each = ["a", "b"]
}
resource "terraform_data" "setnum" {
  for_each = toset([1, 2])
}
resource "terraform_data" "fenull" {
  for_each = null
}
resource "terraform_data" "setnull" {
  for_each = toset(["a", null])
}
resource "terraform_data" "str_fe" {
  for_each = "abc"
}
resource "terraform_data" "sens" {
  for_each = var.secret_set
}
resource "terraform_data" "bad_each" {
  input = each.key
}
resource "terraform_data" "bad_count" {
  input = count.index
}
resource "terraform_data" "dyn" {
  dynamic "foo" {
    for_each = [1]
    content {}
  }
}
locals {
  uses_count = count.index
}
