# A bool, a string and a number unify to set(string); "true" appears once.

result_type = set(string)
result = ["5", "true"]
