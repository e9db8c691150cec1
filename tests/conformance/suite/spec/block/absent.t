# An absent optional block is a null of type object({level = number}).

result_type = object({
  name = string
  settings = object({
    level = number
  })
})
result = {
  name = "n"
  settings = null
}
