locals {
  a = terraform_data.r.output
  m = module.m.out
}
resource "terraform_data" "r" {
  input = local.a
}
module "m" {
  source = "./mod"
  in     = local.m
}
output "o" {
  value = local.m
}
