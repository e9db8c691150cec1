# A function's tuple result, converted to list(string) and kept as is under any.

result_type = object({
  as_any = tuple([number, string])
  as_list = list(string)
})
result = {
  as_any = [1, "x"]
  as_list = ["1", "x"]
}
