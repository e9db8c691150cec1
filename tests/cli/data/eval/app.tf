name    = "web-${env}"
ports   = [for p in base_ports : p + offset]
service "api" {
  replicas = count * 2
  broken   = count + "x"
}
