# An absent attribute inside an array spec is a null of its type in its position.

result_type = tuple([string, string])
result = [null, "x"]
