# min() of several numbers.

result_type = object({
  lit = number
  tr = number
})
result = {
  lit = -1
  tr = 4
}
