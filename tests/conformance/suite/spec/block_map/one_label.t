# Two service blocks keyed by their name label.

result_type = map(object({
  port = number
}))
result = {
  db = {
    port = 5432
  }
  web = {
    port = 80
  }
}
