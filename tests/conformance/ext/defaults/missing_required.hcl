svc = {
  port = 8080
}
