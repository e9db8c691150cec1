# A string literal over an empty body.

result_type = string
result = "constant"
