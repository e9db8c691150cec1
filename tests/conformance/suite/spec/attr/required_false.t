# An absent attribute with required = false is null, not an error.

result_type = object({
  a = string
})
result = {
  a = null
}
