v = outer(1)
