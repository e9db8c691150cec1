# Constant expressions reference no variables: the traversal list is empty.

result_type = object({
  a = number
  b = list(string)
})
result = {
  a = 3
  b = ["x", "y"]
}

traversals {
}
