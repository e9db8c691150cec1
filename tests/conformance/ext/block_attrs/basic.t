result_type = object({
  env    = map(string)
  limits = map(number)
})
result = {
  env = {
    HOME = "/root"
    PORT = "8080"
  }
  limits = null
}
