# neither given: the literal.

result_type = string
result = "none"
