variable "v" {}
variable "v" {
  default = 2
}
locals {
  l = 1
}
locals {
  l = 2
}
output "o" {
  value = 1
}
output "o" {
  value = 2
}
resource "terraform_data" "r" {}
resource "terraform_data" "r" {}
data "terraform_remote_state" "d" {
  backend = "local"
}
data "terraform_remote_state" "d" {
  backend = "local"
}
module "m" {
  source = "./m"
}
module "m" {
  source = "./m"
}
