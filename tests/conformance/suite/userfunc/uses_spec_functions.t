# upper() called from a function body.

result_type = string
result = "HEY!"
