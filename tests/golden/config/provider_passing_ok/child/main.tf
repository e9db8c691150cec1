terraform {
  required_providers {
    terraform = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [terraform.given]
    }
  }
}

provider "terraform" {
  alias = "own"
}

module "grand" {
  source = "./grand"
  providers = {
    terraform   = terraform
    terraform.a = terraform.given
    terraform.b = terraform.own
  }
}

output "o" {
  value = module.grand.o
}
