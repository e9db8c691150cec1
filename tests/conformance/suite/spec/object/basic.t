# Three primitive attributes decode into an object of their values.

result_type = object({
  count = number
  enabled = bool
  name = string
})
result = {
  count = 3
  enabled = true
  name = "web"
}
