# No evaluation context: every string, escapes included, is kept verbatim.

result_type = object({
  escaped = string
  sum = string
  text = string
})
result = {
  escaped = "$$${not_a_ref} %%%{x}"
  sum = "$${1 + 2}"
  text = "a$${1 + 2}b"
}
