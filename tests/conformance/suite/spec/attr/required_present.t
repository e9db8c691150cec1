# A required attribute that is given.

result_type = object({
  id = string
})
result = {
  id = "abc"
}
