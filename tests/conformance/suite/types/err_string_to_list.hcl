v = "abc"
