# A variable passed to a function.

result_type = number
result = 15
