# One provider required under two local names (a warning), and a child
# module that does not require the built-in provider calling its functions.
terraform {
  required_providers {
    terraform = {}
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

resource "terraform_data" "r" {
}

module "child" {
  source = "./child"
}

output "o" {
  value = provider::tf::encode_expr([1])
}
