bbbbbb = 22222 # y
a = 1 /* x */