variable "envs" {
  default = { dev = "10.1.0.0/16", prod = "10.2.0.0/16" }
}
module "net" {
  source   = "./modules/net"
  for_each = var.envs
  name     = each.key
  cidr     = each.value
}
module "single" {
  source = "./modules/net"
  name   = "single"
  cidr   = "10.9.0.0/16"
  zones  = ["a"]
}
locals {
  all_subnets = flatten([for k, m in module.net : m.subnets])
  names       = [for k, m in module.net : m.name]
  first       = module.net["dev"].subnets[0]
  sub_ids     = module.single.sub.ids
}
output "dev" {
  value = module.net["dev"]
}
