# One label's body wrapped in an array, the other's not.

result_type = map(number)
result = {
  db = 5432
  web = 80
}
