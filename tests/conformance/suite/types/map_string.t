# map(string) converts an object whose attributes are all convertible to strings.

result_type = object({
  v = map(string)
})
result = {
  v = {
    a = "x"
    b = "2"
  }
}
