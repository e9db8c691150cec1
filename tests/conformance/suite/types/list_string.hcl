v = ["a", 1, true]
