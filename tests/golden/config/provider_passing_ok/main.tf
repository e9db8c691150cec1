# Configurations passed down two levels: the root's default configuration
# (required, with no provider block) and an aliased one; the child passes
# on what it was given and one of its own. The graph builds.
terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

provider "terraform" {
  alias = "declared"
}

module "child" {
  source = "./child"
  providers = {
    terraform       = terraform
    terraform.given = terraform.declared
  }
}

output "o" {
  value = module.child.o
}
