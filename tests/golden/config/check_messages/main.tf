# Error messages of check assertions (validate only) and output preconditions
# (every walk), evaluated as Terraform's EvalCheckErrorMessage does.
variable "s" {
  default   = "x"
  sensitive = true
}
check "a" {
  assert {
    condition     = var.a == 1
    error_message = "c"
  }
}
check "b" {
  assert {
    condition     = var.s == "x"
    error_message = "bad ${var.s}"
  }
  assert {
    condition     = var.s == "x"
    error_message = null
  }
  assert {
    condition     = var.s == "x"
    error_message = "${1 + "x"}"
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.s == "x"
    error_message = "bad ${var.s}"
  }
  precondition {
    condition     = var.s == "x"
    error_message = null
  }
}
output "p" {
  value = 1
  precondition {
    condition     = var.s == "y"
    error_message = "  trimmed  "
  }
}
output "eph" {
  ephemeral = true
  value     = 1
  precondition {
    condition     = local.nope
    error_message = "x"
  }
  depends_on = [var.nope]
}
output "pre" {
  value = 1
  precondition {
    condition     = var.s == "y"
    error_message = "fails first"
  }
  depends_on = [var.nope2]
}
output "static_fail" {
  value = 1
  precondition {
    condition     = terraform_data.nope.output
    error_message = "${var.s}"
  }
}
output "lookup_fail" {
  value = 1
  precondition {
    condition     = var.nope == 1
    error_message = "m ${var.s}"
  }
}
check "static_and_lookup" {
  assert {
    condition     = terraform_data.nope.output
    error_message = "${local.nope}"
  }
}
