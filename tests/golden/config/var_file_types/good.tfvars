num = "42"
obj = { a = 1 }
