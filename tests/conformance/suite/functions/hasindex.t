# hasindex() tests indices of a tuple (literal) and keys of a map (transform).

result_type = object({
  lit = tuple([bool, bool])
  tr = bool
})
result = {
  lit = [true, false]
  tr = true
}
