env {
  HOME = "/root"
  PORT = 8080
}
