result_type = map(object({
  port      = number
  key_upper = string
}))
result = {
  api = { port = 8080, key_upper = "API" }
  web = { port = 80, key_upper = "WEB" }
}
