# length() of tuples (literal) and of a list (transform).

result_type = object({
  lit = tuple([number, number])
  tr = number
})
result = {
  lit = [3, 0]
  tr = 2
}
