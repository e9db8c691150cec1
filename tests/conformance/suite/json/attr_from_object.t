# A JSON object converted to map(string).

result_type = map(string)
result = {
  env = "prod"
  tier = "1"
}
