# No arguments, then a tuple expanded into the variadic parameter.

result_type = object({
  empty = number
  spread = number
})
result = {
  empty = 0
  spread = 9
}
