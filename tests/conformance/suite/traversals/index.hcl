a = list[1]
b = m["key"]
