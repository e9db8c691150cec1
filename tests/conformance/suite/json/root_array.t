# Properties of two root objects merged; the block list gathers blocks from both.

result_type = object({
  a = number
  b = list(number)
})
result = {
  a = 1
  b = [1, 2]
}
