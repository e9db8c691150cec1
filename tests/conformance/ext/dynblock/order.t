result_type = list(number)
result      = [1, 2, 3, 4]
