variable "port" {
  type    = number
  default = 80
  validation {
    condition     = var.port > 0 && var.port < 65536
    error_message = "The port must be between 1 and 65535, got ${var.port}."
  }
  validation {
    condition     = var.port != 22
    error_message = "   Port 22 is reserved.   "
  }
}
variable "min" {
  type    = number
  default = 10
}
variable "max" {
  type    = number
  default = 20
  validation {
    condition     = var.max >= var.min
    error_message = "max (${var.max}) must be >= min (${var.min}), local.x=${local.x}."
  }
}
locals {
  x = "lx"
}
variable "name" {
  type    = string
  default = "ok"
  validation {
    condition     = length(var.name) > 1 ? null : false
    error_message = "unused"
  }
}
variable "s" {
  type      = string
  default   = "secret"
  sensitive = true
  validation {
    condition     = var.s != "bad"
    error_message = "bad secret: ${var.s}"
  }
}
variable "cond" {
  type    = string
  default = "a"
  validation {
    condition     = var.cond
    error_message = "cond"
  }
}
