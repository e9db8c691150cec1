f = "two.tfvars"
