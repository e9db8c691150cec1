# A required block with an empty body: its absent attribute is null.

result_type = object({
  level = number
})
result = {
  level = null
}
