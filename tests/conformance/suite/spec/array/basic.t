# A literal, an attribute and an object, in spec order, as a tuple.

result_type = tuple([string, number, object({
  s = string
})])
result = ["first", 42, {
  s = "str"
}]
