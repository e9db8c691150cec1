# Block lists within block lists, in both syntaxes.

result_type = list(object({
  inner = list(number)
  name = string
}))
result = [{
  inner = [1, 2]
  name = "a"
}, {
  inner = []
  name = "b"
}]
