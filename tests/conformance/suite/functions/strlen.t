# strlen() counts characters (grapheme clusters), not bytes.

result_type = object({
  lit = number
  tr = number
})
result = {
  lit = 3
  tr = 3
}
