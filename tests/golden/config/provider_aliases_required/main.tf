# A child module's configuration_aliases must each be passed to it.
terraform {
  required_providers {
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

provider "tf" {
  alias = "one"
}

module "given" {
  source = "./child"
  providers = {
    tf.a = tf.one
    tf.b = tf.one
  }
}

module "missing" {
  source = "./child"
  providers = {
    tf.a = tf.one
  }
}
