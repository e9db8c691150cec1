# list(string) converts a tuple of mixed primitives element by element.

result_type = object({
  v = list(string)
})
result = {
  v = ["a", "1", "true"]
}
