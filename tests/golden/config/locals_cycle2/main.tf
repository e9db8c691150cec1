locals {
  self_ref = local.self_ref
  x = local.y
  y = local.x
  p = var.v
}
variable "v" {
  default = 1
  validation {
    condition     = var.v == local.p
    error_message = "x"
  }
}
