# The number literal is not converted to the attribute's type string.

result_type = object({
  v = number
})
result = {
  v = 5
}
