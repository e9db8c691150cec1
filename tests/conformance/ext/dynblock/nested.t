result_type = list(object({
  name   = string
  member = list(string)
}))
result = [
  { name = "g0", member = ["0.0=a", "0.1=b"] },
  { name = "g1", member = ["1.0=c"] },
]
