a = b == c
bbb = { x = 1, y = 2 }
cc = x == y ? 1 : 2
