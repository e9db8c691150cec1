# No variadic arguments, then three.

result_type = object({
  none = string
  three = string
})
result = {
  none = "a:0"
  three = "b:3"
}
