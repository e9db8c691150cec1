name     = 5
replicas = "many"

listener {
  tls = "maybe"
}

env "HOME" {
  value = "/srv"
}

env "HOME" {
  value = "/root"
}

oops = true
