# No service blocks: an empty map(number).

result_type = object({
  service = map(number)
})
result = {
  service = {}
}
