terraform {
  required_providers {
    terraform = {
      configuration_aliases = [terraform.given]
    }
  }
}

resource "terraform_data" "given" {
  provider = terraform.given
}

resource "terraform_data" "x" {
  provider = terraform.nope
}
