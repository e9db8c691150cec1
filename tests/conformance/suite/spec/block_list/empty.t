# No rule blocks: an empty list of object({port = number}).

result_type = object({
  rule = list(object({
    port = number
  }))
})
result = {
  rule = []
}
