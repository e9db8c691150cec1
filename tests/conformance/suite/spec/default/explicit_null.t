# mode = null: the literal "auto".

result_type = string
result = "auto"
