# A module call's providers entry naming an aliased configuration its
# caller does not have: building the graph stops at "missing provider ..."
# (ProviderConfigTransformer), before any reference is looked at.
provider "terraform" {
  alias = "declared"
}

module "child" {
  source = "./child"
  providers = {
    terraform = terraform.nope
  }
}

module "other" {
  source = "./child"
  providers = {
    terraform = terraform.declared
  }
}

output "o" {
  value = local.nope
}
