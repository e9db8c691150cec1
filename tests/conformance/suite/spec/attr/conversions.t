# Safe conversions between string, number and bool.

result_type = object({
  bool_from_string = bool
  num_from_string = number
  string_from_bool = string
  string_from_num = string
})
result = {
  bool_from_string = false
  num_from_string = 12.5
  string_from_bool = "true"
  string_from_num = "7"
}
