# A literal beside an attribute in an object.

result_type = object({
  kind = string
  name = string
})
result = {
  kind = "server"
  name = "s1"
}
