variable "typed" {
  type    = string
  default = "base"
  description = "base desc"
}
variable "retype" {
  type    = list(string)
  default = ["a"]
}
variable "validated" {
  type    = number
  default = 5
  validation {
    condition     = var.validated < 10
    error_message = "base validation"
  }
}
variable "opt" {
  type    = object({ a = optional(string, "base-default") })
  default = {}
}
locals {
  a = "base-a"
  b = "base-b"
}
output "o" {
  value       = "base-o"
  description = "base"
}
module "m" {
  source = "./mod"
  x      = "base-x"
  y      = "base-y"
}
resource "terraform_data" "r" {
  input = "base"
  triggers_replace = ["t"]
  lifecycle {
    create_before_destroy = true
  }
}
