module "m" {
  source = "./mod"
}
module "remote" {
  source  = "hashicorp/consul/aws"
  version = "0.1.0"
}
