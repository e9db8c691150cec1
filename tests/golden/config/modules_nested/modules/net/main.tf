variable "name" {
  type = string
}
variable "cidr" {
  type = string
}
variable "zones" {
  type    = list(string)
  default = ["a", "b", "c"]
}
module "sub" {
  source = "./sub"
  count  = length(var.zones) > 1 ? 1 : 0
  prefix = var.name
}
locals {
  subnets = [for i, z in var.zones : cidrsubnet(var.cidr, 8, i)]
}
output "name" {
  value = var.name
}
output "subnets" {
  value = local.subnets
}
output "sub" {
  value = { ids = try(module.sub[0].ids, []) }
}
output "path" {
  value = path.module
}
