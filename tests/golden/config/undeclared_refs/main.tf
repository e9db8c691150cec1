variable "instance_type" {
  default = "t2"
}
locals {
  region_name = "eu"
}
output "result" {
  value = local.region_name
}
module "network" {
  source = "./network"
}
resource "terraform_data" "web" {
  input = "w"
}
data "terraform_remote_state" "state" {
  backend = "local"
}
