name       = "shop-prod"
cidr_block = "10.42.0.0/16"

tags = {
  Environment = "production"
  CostCenter  = "4711"
}

instance = {
  type  = "m6i.large"
  count = 3
  disks = [
    { size = 100, kind = "gp3" },
    { size = 500, kind = "st1" },
  ]
}
