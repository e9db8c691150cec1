variable "env" {
  type    = string
  default = "dev"
}
variable "password" {
  type      = string
  default   = "s3cret"
  sensitive = true
}
locals {
  name  = "app-${var.env}"
  zones = ["a", "b"]
}
module "net" {
  source = "./mod"
  name   = local.name
}
resource "aws_subnet" "this" {
  count      = length(local.zones)
  cidr_block = module.net.cidrs[count.index]
  vpc_id     = aws_vpc.main.id
}
resource "aws_vpc" "main" {
  tags = { Name = local.name }
}
output "subnets" {
  value = module.net.cidrs
}
