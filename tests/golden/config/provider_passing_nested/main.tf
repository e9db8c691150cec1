# The caller of a grandchild is the child: its configurations are what it
# declares and what the root passes it, and a name it lacks stops the graph
# with the child's path in the address.
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
    terraform.given = terraform.declared
  }
}
