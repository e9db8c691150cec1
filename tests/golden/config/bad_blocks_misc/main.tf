terraform {
  required_version = ">= 1.0"
  unknown_arg      = 1
  required_providers {
    foo = {
      source = "hashicorp/foo"
      bogus  = 1
    }
  }
}
terraform {
  required_providers {
    bar = "1.0"
  }
}
required_providers {
}
provider "foo" {
  count = 1
  alias = "bad alias"
  locals {}
}
resource "terraform_data" "both" {
  count    = 1
  for_each = {}
  lifecycle {
    create_before_destroy = "yes"
    bogus                 = 1
  }
  lifecycle {}
  locals {}
  provisioner "chef" {}
  dynamic "lifecycle" {
    for_each = []
    content {}
  }
}
data "terraform_remote_state" "d" {
  backend = "local"
  lifecycle {
    prevent_destroy = true
  }
}
moved {
  from = terraform_data.a
}
moved {
  from = module.a
  to   = terraform_data.b
}
import {
  to = data.terraform_remote_state.d
  id = "x"
}
removed {
  from = terraform_data.gone
  lifecycle {
    destroy = false
  }
  provisioner "local-exec" {
    command = "echo"
  }
}
check "c" {
}
ephemeral "x" "y" {
  lifecycle {
    prevent_destroy = true
  }
}
output "o" {
  value      = 1
  depends_on = ["terraform_data.both"]
}
