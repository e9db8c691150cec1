# Variables from two variables blocks used together.

result_type = string
result = "AB"
