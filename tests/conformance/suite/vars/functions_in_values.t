# Variables computed by upper() and concat() in the spec file.

result_type = object({
  n = string
  p = list(string)
})
result = {
  n = "WEB"
  p = ["a", "b", "c"]
}
