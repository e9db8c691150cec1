# null converts to a null of any declared type.

result_type = object({
  v = list(string)
})
result = {
  v = null
}
