# An empty object spec over an empty body.

result_type = object({})
result = {}
