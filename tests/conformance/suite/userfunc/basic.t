# double(21) from a one-parameter function.

result_type = number
result = 42
