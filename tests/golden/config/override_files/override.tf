variable "typed" {
  default = "from override.tf"
}
locals {
  a = "override-a"
}
