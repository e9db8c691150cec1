x = 1
y = "two"
