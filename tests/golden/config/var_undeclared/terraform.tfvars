declared = "from tfvars"
undeclared_one = 1
