# The functions of the built-in provider terraform.io/builtin/terraform,
# callable once the module requires it: here as "tf" by its source; the
# child module requires it by the local name "terraform", which implies it.
terraform {
  required_providers {
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

variable "secret" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}

variable "unknown_later" {
  type    = list(number)
  default = [1, 2]
}

locals {
  vars = {
    region = "eu-west-1"
    zones  = ["a", "b"]
    tags   = { Name = "web", "team name" = "x" }
    count  = 3
  }
  decoded = provider::tf::decode_tfvars(provider::tf::encode_tfvars(local.vars))
  same    = local.decoded == local.vars
}

resource "terraform_data" "r" {
  provider = terraform
  input    = provider::tf::encode_expr(local.vars)
}

output "tfvars" {
  value = provider::tf::encode_tfvars(local.vars)
}

output "roundtrip" {
  value = local.same
}

module "child" {
  source = "./child"
  value  = local.vars
}
