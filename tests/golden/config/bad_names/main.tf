variable "1abc" {}
variable "a.b" {}
variable "count" {}
variable "source" {}
variable "version" {}
variable "for_each" {}
variable "depends_on" {}
variable "providers" {}
variable "lifecycle" {}
variable "locals" {}
variable "provider" {}
variable "_" {}
variable "ok-name_1" {
  default = 1
}
output "bad name" {
  value = 1
}
resource "bad type" "x" {}
resource "terraform_data" "9x" {}
data "terraform_remote_state" "a b" {
  backend = "local"
}
module "1m" {
  source = "./m"
}
check "c d" {
  assert {
    condition     = var.ok-name_1 == 1
    error_message = "x"
  }
}
