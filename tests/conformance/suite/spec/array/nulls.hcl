b = "x"
