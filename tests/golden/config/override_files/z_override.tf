variable "typed" {
  default = "from z_override.tf"
}
variable "retype" {
  type = set(string)
}
variable "validated" {
  default = 50
}
variable "opt" {
  type = object({ a = optional(string, "override-default"), b = optional(number, 7) })
}
output "o" {
  value = "override-o"
}
module "m" {
  y = "override-y"
}
resource "terraform_data" "r" {
  input = "override"
}
