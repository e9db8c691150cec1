# A single block's body decoded as an object.

result_type = object({
  settings = object({
    level = number
    mode = string
  })
})
result = {
  settings = {
    level = 2
    mode = "fast"
  }
}
