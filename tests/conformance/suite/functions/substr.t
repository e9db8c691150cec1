# substr() with an offset and a length; a negative offset counts from the end.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = "world"
  tr = "def"
}
