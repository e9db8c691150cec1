a =
b   = 2
