# max() of several numbers.

result_type = object({
  lit = number
  tr = number
})
result = {
  lit = 9.5
  tr = 12
}
