f = "one.tfvars"
g = "one.tfvars"
