variable "a" {
  default = 1 +
}
locals {
  x = [1, 2
}
