terraform {
  required_version = ">= 99999999999999"
}
terraform {
  required_version = ">= 99999999999999999999"
}
terraform {
  required_version = " v1.0 , < 2.0.0-beta.1+build.5 "
}
terraform {
  required_version = "~> 1.11-rc1"
}
terraform {
  required_version = ">= 1.2."
}
locals {
  x = 1
}
