# Provider configurations passed to child modules (validateProviderConfigs):
# names the caller neither configures nor requires, names the child does not
# declare, configurations a child overrides itself, and types that differ.
terraform {
  required_providers {
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

module "child" {
  source = "./child"
  providers = {
    terraform = terraform
    other     = tf
  }
}

module "typed" {
  source = "./typed"
  providers = {
    builtin = tf
  }
}
