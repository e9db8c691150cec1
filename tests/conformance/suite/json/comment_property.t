# The "//" property is ignored.

result_type = object({
  a = string
})
result = {
  a = "x"
}
