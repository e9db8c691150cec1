# list(any) unifies the element types: a number and a string give list(string).

result_type = object({
  v = list(string)
})
result = {
  v = ["1", "two"]
}
