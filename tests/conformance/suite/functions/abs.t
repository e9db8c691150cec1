# abs() in a literal value and in a transform result.

result_type = object({
  lit = number
  tr = number
})
result = {
  lit = 3.5
  tr = 7
}
