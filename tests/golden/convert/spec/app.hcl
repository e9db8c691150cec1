name = "web-${var.env}"
port = "8080"
tags = { team = "core", tier = upper("x") }
service "http" "web" {
  enabled = true
  cmd     = ["run", var.flag]
  check { interval = "10s" }
  check {
    interval = "30s"
    label    = "${self.name}"
  }
}
service "tcp" "db" {
  enabled = false
}
env {
  A = "1"
  B = 2
}
