# Requires the built-in provider by its implied local name.
terraform {
  required_providers {
    terraform = {}
  }
}

variable "value" {
  type = any
}

output "expr" {
  value = provider::terraform::encode_expr(var.value)
}
