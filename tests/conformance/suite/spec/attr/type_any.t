# type = any, or no type at all, keeps each expression's own type.

result_type = object({
  a = tuple([number, string, bool])
  b = object({
    k = number
  })
  c = any
})
result = {
  a = [1, "two", true]
  b = {
    k = 1
  }
  c = null
}
