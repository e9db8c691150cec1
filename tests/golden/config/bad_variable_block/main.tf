variable "a" {
  typo    = 1
  default = 1
  foo {}
}
variable "b" {
  default = var.a
}
variable "c" {
  default = upper("x")
}
variable "d" {
  type    = number
  default = "x"
}
variable "e" {
  type     = string
  nullable = false
  default  = null
}
variable "f" {
  description = 1
  sensitive   = "yes"
  nullable    = "maybe"
}
variable "g" {
  validation {
    condition     = 1 == 1
    error_message = "x"
  }
  validation {
    condition     = local.z
    error_message = "x"
  }
  validation {
    condition = var.g != ""
  }
}
output "o1" {
}
output "o2" {
  value   = 1
  bogus   = 2
  postcondition {
    condition     = true
    error_message = "x"
  }
}
locals {
  z = true
}
