# block_type picks the input block type, the label the result attribute.

result_type = object({
  result_name = string
})
result = {
  result_name = "x"
}
