# No tag blocks: an empty set(string).

result_type = object({
  tag = set(string)
})
result = {
  tag = []
}
