# reverse() reverses the characters of a string.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = "cba"
  tr = "olléh"
}
