# An object within an object, and an array, reading the same body.

result_type = object({
  inner = object({
    x = number
  })
  pair = tuple([number, string])
  y = string
})
result = {
  inner = {
    x = 1
  }
  pair = [1, "two"]
  y = "two"
}
