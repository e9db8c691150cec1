none  = count_rest("a")
three = count_rest("b", 1, 2, 3)
