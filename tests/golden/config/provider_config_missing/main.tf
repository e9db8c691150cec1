# A resource whose provider argument names an aliased configuration that
# its module neither declares nor is passed: the graph cannot be built
# ("Provider configuration not present"), in validate and the console.
terraform {
  required_providers {
    terraform = {
      configuration_aliases = [terraform.ca]
    }
  }
}

provider "terraform" {
  alias = "declared"
}

resource "terraform_data" "ok" {
  provider = terraform.declared
}

resource "terraform_data" "a" {
  provider = terraform.ca
}

data "terraform_remote_state" "s" {
  provider = terraform.gone
  backend  = "local"
}

module "child" {
  source = "./child"
  providers = {
    terraform.given = terraform.declared
  }
}
