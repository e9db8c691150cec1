dynamic "service" {
  for_each = {
    web = 80
    api = 8080
  }
  iterator = svc
  labels   = [svc.key]
  content {
    port      = svc.value
    key_upper = upper(svc.key)
  }
}
