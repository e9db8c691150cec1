result_type = object({
  service = object({
    name     = string
    port     = number
    protocol = string
    tls = object({
      enabled = bool
      cert    = string
    })
    routes = list(object({
      path   = string
      weight = number
    }))
  })
})
result = {
  service = {
    name     = "web"
    port     = 80
    protocol = null
    tls = {
      enabled = true
      cert    = "web.pem"
    }
    routes = [
      { path = "/", weight = 1 },
      { path = "/api", weight = 5 },
    ]
  }
}
