# a = null satisfies required: the result is a null string.

result_type = string
result = null
