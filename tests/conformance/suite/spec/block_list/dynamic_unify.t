# A number and a string from an any-typed attribute unify to list(string).

result_type = list(string)
result = ["1", "one"]
