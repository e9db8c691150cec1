n = 42
s = "str"
