# list(object(...)) converts a tuple of objects.

result_type = object({
  v = list(object({
    id = number
  }))
})
result = {
  v = [{
    id = 1
  }, {
    id = 2
  }]
}
