# provider_meta blocks: static attributes, a normalized local name, one
# block per provider (by its address, so two local names of one provider
# are one provider).
terraform {
  required_providers {
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }

  provider_meta "terraform" {
    hello = "world"
  }

  provider_meta "tf" {
    hello = var.name
  }

  provider_meta "Bad" {
    x = 1
  }

  provider_meta "other" {
    nested {}
  }

  provider_meta "other" {
    a = upper("x")
    b = local.y
  }
}

terraform {
  provider_meta "other" {
  }
}

variable "name" {
  default = "x"
}
