# Arithmetic, a conditional, an object for expression with a filter, and a splat.

result_type = object({
  arith = number
  cond = string
  for = map(number)
  splat = list(string)
})
result = {
  arith = 4
  cond = "yes"
  for = {
    "b!" = 20
  }
  splat = ["x", "y"]
}
