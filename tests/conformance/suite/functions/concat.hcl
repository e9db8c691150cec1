in = ["a", "b"]
