v = [1, "two"]
