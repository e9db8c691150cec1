# import blocks' to, as decodeImportBlock reads it (native and JSON syntax).
variable "k" {
  default = "a"
}
resource "terraform_data" "a" {
  count = 2
}
import {
  to = var.a
  id = "x"
}
import {
  to = terraform_data.a[var.k]
  id = "x"
}
import {
  to = data.x.y
  id = "x"
}
import {
  to = module.m.terraform_data.x
  id = "x"
  provider = terraform
}
import {
  to = upper("x")
  id = "x"
}
import {
  to = terraform_data.a[0].x
  id = "x"
}
import {
  to = "terraform_data.a"
  id = "x"
}
import {
  to = terraform_data.a[1]
  bogus = 1
}
import {
  to = module.m[var.k].terraform_data.x
  id = "y"
}
import {
  to = module.m
  id = "z"
}
