variable "region" {
  type    = string
  default = "eu-west-1"
}
locals {
  name  = "img-${var.region}"
  upper = upper(local.name)
  tags  = { team = "infra" }
}
source "amazon-ebs" "x" {
  region = var.region
}
build {
  sources = ["source.amazon-ebs.x"]
}
