# only b given: b.

result_type = string
result = "from b"
