# References to provider configurations (decodeProviderConfigRef), version
# constraints that are null, and null or unknown values where Terraform
# decodes into a Go bool or string (gohcl).
resource "terraform_data" "a" {
  provider = foo_bar
}
resource "terraform_data" "b" {
  provider = Terraform.x
}
resource "terraform_data" "c" {
  provider = "terraform.y"
}
resource "terraform_data" "d" {
  provider = terraform[0]
}
resource "terraform_data" "e" {
  provider = terraform.a.b
}
resource "terraform_data" "f" {
  provider = "x y"
}
resource "terraform_data" "g" {
  provider = upper("x")
}
resource "terraform_data" "h" {
  provider = terraform-
}
data "terraform_remote_state" "i" {
  backend = "local"
  provider = "terraform"
}
module "m" {
  source = "./child"
  providers = {
    terraform = terraform.x
    "terraform" = terraform
    foo_bar = terraform
  }
}
import {
  to = terraform_data.a
  id = "x"
  provider = "terraform"
}
terraform {
  required_version = null
}
module "versioned" {
  source  = "./child"
  version = null
}
output "o" {
  value       = 1
  description = null
  sensitive   = null
}
provider "terraform" {
  alias = null
}
resource "terraform_data" "r" {
  lifecycle {
    create_before_destroy = null
  }
}
variable "x" {
  sensitive   = var.a
  description = upper("x")
  nullable    = null
  ephemeral   = null
}
