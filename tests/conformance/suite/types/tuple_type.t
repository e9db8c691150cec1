# tuple([...]) converts each element to its position's type.

result_type = object({
  v = tuple([string, number, bool])
})
result = {
  v = ["1", 2, true]
}
