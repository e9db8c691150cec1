# A template and substr() over the nested object's attributes.

result_type = object({
  full = string
  initial = string
})
result = {
  full = "Ada Lovelace"
  initial = "A"
}
