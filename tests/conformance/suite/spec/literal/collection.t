# A literal object holding a tuple, a nested object, a sum and a template.

result_type = object({
  list = tuple([number, number, number])
  nested = object({
    a = tuple([string])
  })
  sum = number
  text = string
})
result = {
  list = [1, 2, 3]
  nested = {
    a = ["x"]
  }
  sum = 42
  text = "n=2"
}
