id = "abc"
