# Attribute and index steps into an object variable.

result_type = object({
  first = string
  name = string
})
result = {
  first = "10.0.0.0/8"
  name = "main"
}
