# Absent optional attributes are kept as nulls of their declared types.

result_type = object({
  a = string
  b = number
  c = list(string)
})
result = {
  a = "present"
  b = null
  c = null
}
