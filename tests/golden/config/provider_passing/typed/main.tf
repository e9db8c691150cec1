terraform {
  required_providers {
    builtin = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
