# concat() of tuples gives a tuple, in a literal and in a transform.

result_type = object({
  lit = tuple([number, number, number])
  tr = tuple([string, string, string])
})
result = {
  lit = [1, 2, 3]
  tr = ["a", "b", "end"]
}
