variable "a" {
  type    = list # comment
  default = "${x}"
  validation {
    type = list
  }
}
variables {
  type = list
}
locals {
  type = "string"
}
module "m" {
  variable "x" {
    type = list
  }
}
