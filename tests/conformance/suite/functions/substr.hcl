in = "abcdef"
