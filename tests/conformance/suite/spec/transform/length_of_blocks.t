# length() of a three-element block list.

result_type = object({
  count = number
})
result = {
  count = 3
}
