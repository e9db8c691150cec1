v = add(base, 5)
