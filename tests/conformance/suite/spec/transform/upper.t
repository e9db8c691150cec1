# upper() of the decoded attribute.

result_type = string
result = "WEB"
