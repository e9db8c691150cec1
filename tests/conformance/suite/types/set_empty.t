# An empty tuple converts to an empty set of the element type.

result_type = object({
  v = set(string)
})
result = {
  v = []
}
