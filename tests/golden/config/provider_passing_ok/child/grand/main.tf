terraform {
  required_providers {
    terraform = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [terraform.a, terraform.b]
    }
  }
}

resource "terraform_data" "x" {
  provider = terraform.b
  input    = "grand"
}

output "o" {
  value = "${terraform_data.x.input}-${path.module}"
}
