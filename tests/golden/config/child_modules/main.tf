variable "names" {
  default = ["a", "b"]
}
module "single" {
  source = "./mod"
  name   = "one"
  num    = "5"
}
module "counted" {
  source = "./mod"
  count  = 2
  name   = "c${count.index}"
}
module "each" {
  source   = "./mod"
  for_each = toset(var.names)
  name     = each.key
  num      = length(each.value)
}
module "zero" {
  source = "./mod"
  count  = 0
  name   = "z"
}
output "from_single" {
  value = module.single.greeting
}
