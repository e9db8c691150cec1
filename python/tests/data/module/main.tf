variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "ports" {
  type = list(number)
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

locals {
  name  = "web-${var.region}"
  count = length(var.ports)
}

resource "aws_instance" "web" {
  ami   = "ami-1"
  count = local.count
}

output "name" {
  value = local.name
}

output "urls" {
  value = [for p in var.ports : "http://${local.name}:${p}"]
}

output "secret" {
  value     = var.secret
  sensitive = true
}
