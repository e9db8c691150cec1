# Import blocks as validate checks them at their target resources:
# instance keys against count and for_each, configuration generation for
# targets no block declares, and the id (not null, not empty, not the
# resource itself).
variable "v" {
  default = "x"
}
resource "terraform_data" "plain" {}
resource "terraform_data" "counted" {
  count = 2
}
resource "terraform_data" "each" {
  for_each = toset(["a"])
}
import {
  to = terraform_data.plain[0]
  id = "a"
}
import {
  to = terraform_data.counted
  id = "b"
}
import {
  to = terraform_data.each["a"]
  id = var.nope
}
import {
  to = terraform_data.each
  id = "c" + 1
}
import {
  to = terraform_data.missing
  id = "d"
}
import {
  to = terraform_data.missing2["k"]
  id = "e"
}
import {
  to = terraform_data.plain2
  id = terraform_data.plain2.id
}
resource "terraform_data" "plain2" {}
import {
  to = terraform_data.counted[1]
  id = 5
}
import {
  to = terraform_data.plain3
  id = null
}
resource "terraform_data" "plain3" {}
resource "terraform_data" "empty_id" {}
import {
  to = terraform_data.empty_id
  id = ""
}
resource "terraform_data" "typed" {}
import {
  to = terraform_data.typed
  id = [1]
}
resource "terraform_data" "unknown_id" {}
import {
  to = terraform_data.unknown_id
  id = terraform_data.plain.id
}
