# An inner block decoded inside an outer block.

result_type = object({
  inner = object({
    depth = number
  })
  name = string
})
result = {
  inner = {
    depth = 2
  }
  name = "o"
}
