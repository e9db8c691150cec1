# ${1 + n} alone is the number 3; inside text it is rendered; $${ and %%{ escape.

result_type = object({
  escaped = string
  sum = number
  text = string
})
result = {
  escaped = "$${not_a_ref} %%{x}"
  sum = 3
  text = "a3b"
}
