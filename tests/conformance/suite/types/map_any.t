# map(any) unifies the attribute types: bools and strings give map(string).

result_type = object({
  v = map(string)
})
result = {
  v = {
    a = "true"
    b = "x"
  }
}
