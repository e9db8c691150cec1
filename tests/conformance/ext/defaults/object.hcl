service = {
  name = "web"
  tls = {
    cert = "web.pem"
  }
  routes = [
    { path = "/" },
    { path = "/api", weight = 5 },
  ]
}
