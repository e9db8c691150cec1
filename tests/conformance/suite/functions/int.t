# int() truncates towards zero.

result_type = object({
  lit = tuple([number, number])
  tr = number
})
result = {
  lit = [2, -2]
  tr = 9
}
