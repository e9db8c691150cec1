# Two numbers from an any-typed attribute give list(number).

result_type = list(number)
result = [1, 2]
