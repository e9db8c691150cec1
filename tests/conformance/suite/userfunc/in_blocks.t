# A two-parameter function called from two labelled blocks.

result_type = map(string)
result = {
  a = "a-1"
  b = "b-2"
}
