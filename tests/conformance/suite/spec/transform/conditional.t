# A conditional over the nested number.

result_type = object({
  size = string
})
result = {
  size = "big"
}
