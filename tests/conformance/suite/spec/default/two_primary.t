# port is given: the attribute wins over the literal.

result_type = object({
  port = number
})
result = {
  port = 443
}
