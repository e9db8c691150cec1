terraform {
  required_providers {
    terraform = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [terraform.given]
    }
  }
}

module "grand" {
  source = "./grand"
  providers = {
    terraform.a = terraform.given
    terraform.b = terraform.missing
  }
}
