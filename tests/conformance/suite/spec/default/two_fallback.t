# port is absent: the literal 8080.

result_type = object({
  port = number
})
result = {
  port = 8080
}
