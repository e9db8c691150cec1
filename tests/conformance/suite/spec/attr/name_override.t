# The input attribute input_name is decoded under the label result_key.

result_type = object({
  result_key = string
})
result = {
  result_key = "value"
}
