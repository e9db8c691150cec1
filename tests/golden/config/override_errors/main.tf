variable "v" {
  type    = number
  default = 1
}
variable "w" {
  type    = string
  default = "abc"
}
output "o" {
  value = 1
}
resource "terraform_data" "r" {}
moved {
  from = terraform_data.old
  to   = terraform_data.r
}
