result_type = object({
  listener = list(object({
    port = number
    tag  = string
  }))
})
result = {
  listener = [
    { port = 22, tag = "static" },
    { port = 80, tag = "dyn-0" },
    { port = 443, tag = "dyn-1" },
  ]
}
