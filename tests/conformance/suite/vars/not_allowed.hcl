v = x
