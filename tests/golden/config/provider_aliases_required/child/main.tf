terraform {
  required_providers {
    tf = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [tf.a, tf.b]
    }
  }
}
