# A string variable and a number variable used in expressions (JSON: in templates).

result_type = object({
  how_many = number
  where = string
})
result = {
  how_many = 6
  where = "eu-west"
}
