# object(...) conversion drops attributes the type does not mention.

result_type = object({
  v = object({
    name = string
  })
})
result = {
  v = {
    name = "web"
  }
}
