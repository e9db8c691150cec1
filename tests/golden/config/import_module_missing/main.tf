# An import block whose target module is not in the configuration: the
# graph cannot be built, so validate reports nothing else.
variable "v" {
  default = "x"
}
import {
  to = module.m.terraform_data.x
  id = "f"
}
output "bad" {
  value = var.undeclared
}
