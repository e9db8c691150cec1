# coalesce() skips nulls but not the empty string.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = ""
  tr = "default"
}
