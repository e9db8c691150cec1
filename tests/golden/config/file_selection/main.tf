variable "v" {
  default = "main"
}
locals {
  order = "main"
}
