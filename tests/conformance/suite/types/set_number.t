# set(number) converts a tuple and drops duplicate elements.

result_type = object({
  v = set(number)
})
result = {
  v = [1, 2, 3]
}
