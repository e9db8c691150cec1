# a and b given: a.

result_type = string
result = "from a"
