region   = "eu-west-1"
replicas = 2
