e = "Z.auto.tfvars (uppercase sorts first)"
