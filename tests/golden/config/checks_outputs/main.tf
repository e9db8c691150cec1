variable "n" {
  default = 5
}
output "guarded" {
  value = var.n * 2
  precondition {
    condition     = var.n < 3
    error_message = "n must be < 3 but is ${var.n}."
  }
}
output "leaks" {
  value = local.secret
}
output "eph" {
  value     = "x"
  ephemeral = true
}
locals {
  secret = sensitive("s")
  uses_output = 1
}
check "health" {
  assert {
    condition     = var.n == 1
    error_message = "n is not 1"
  }
}
resource "terraform_data" "r" {
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n < 3
      error_message = "resource precondition"
    }
    postcondition {
      condition     = self.input != null
      error_message = "post"
    }
  }
}
