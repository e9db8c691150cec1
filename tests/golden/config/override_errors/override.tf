variable "missing" {
  default = 1
}
variable "v" {
  default = "not a number"
  validation {
    condition     = var.v > 0
    error_message = "x"
  }
}
variable "w" {
  type = number
}
locals {
  nolocal = 1
}
output "nooutput" {
  value = 1
}
output "o" {
  depends_on = [terraform_data.r]
}
module "nomodule" {
  source = "./x"
}
resource "terraform_data" "nores" {}
data "terraform_remote_state" "nodata" {
  backend = "local"
}
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
check "c" {
  assert {
    condition     = true
    error_message = "x"
  }
}
