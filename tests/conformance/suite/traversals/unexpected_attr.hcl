a = x
b = y
