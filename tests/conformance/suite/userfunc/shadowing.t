# x is 100 outside the function and the argument 1 inside.

result_type = object({
  from_call = number
  from_var = number
})
result = {
  from_call = 1
  from_var = 100
}
