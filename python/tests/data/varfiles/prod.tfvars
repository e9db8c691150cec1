region = "prod-1"
