# map(list(number)) converts nested collections.

result_type = object({
  v = map(list(number))
})
result = {
  v = {
    a = [1, 2]
    b = []
  }
}
