variable "names" {
  type    = list(string)
  default = ["web", "db", "cache"]
}
variable "ports" {
  type    = map(number)
  default = { http = 80, https = 443 }
}
variable "cidr" {
  default = "10.0.0.0/16"
}
locals {
  upper_names = [for n in var.names : upper(n)]
  by_name     = { for i, n in var.names : n => i }
  subnets     = [for i in range(3) : cidrsubnet(var.cidr, 8, i)]
  joined      = join(",", var.names)
  csv         = csvdecode("a,b\n1,2\n3,4")
  yaml        = yamldecode("a: [1, 2]\nb: {c: x}")
  merged      = merge(var.ports, { ssh = 22 })
  flat        = flatten([[1, 2], [3, [4, 5]]])
  zipped      = zipmap(var.names, [1, 2, 3])
  tags        = { Name = "app", Env = "dev" }
}
