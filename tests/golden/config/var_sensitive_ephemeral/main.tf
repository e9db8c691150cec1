variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
variable "eph" {
  type      = string
  default   = "temp"
  ephemeral = true
}
locals {
  derived   = "x-${var.secret}"
  partial   = { a = var.secret, b = "plain" }
  eph_local = "e-${var.eph}"
}
output "s" {
  value     = var.secret
  sensitive = true
}
output "plain" {
  value = "p"
}
