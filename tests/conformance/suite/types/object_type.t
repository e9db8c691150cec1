# object(...) converts an object value, attribute by attribute.

result_type = object({
  v = object({
    name = string
    port = number
  })
})
result = {
  v = {
    name = "web"
    port = 80
  }
}
