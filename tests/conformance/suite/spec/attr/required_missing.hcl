other = "x"

