terraform {
  required_version = ">= 2.0"
}
terraform {
  required_version = "~> 1.11.0"
}
locals {
  x = 1
}
