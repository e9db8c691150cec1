# jsondecode() parses JSON text into values.

result_type = object({
  lit = object({
    a = tuple([number, bool, any])
  })
  tr = tuple([number, string])
})
result = {
  lit = {
    a = [1, true, null]
  }
  tr = [1, "two"]
}
