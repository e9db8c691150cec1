n = name
p = parts
