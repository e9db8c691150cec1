# What terraform validate checks of test files against the configuration
# under test: override targets that do not exist (warnings) and
# expect_failures references to what cannot fail (errors).
variable "name" {
  type    = string
  default = "x"
}

locals {
  upper = upper(var.name)
}

resource "terraform_data" "r" {
  input = local.upper
}

data "terraform_remote_state" "s" {
  backend = "local"
}

module "child" {
  source = "./child"
}

check "c" {
  assert {
    condition     = var.name != ""
    error_message = "Empty."
  }
}

output "o" {
  value = terraform_data.r.output
}
