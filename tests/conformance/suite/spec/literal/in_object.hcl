name = "s1"
