# null for a single block is no block (null); for a block list, no blocks (empty list).

result_type = object({
  rule = list(number)
  settings = number
})
result = {
  rule = []
  settings = null
}
