a = 1 /* x */ # y
bbbb = 2 # z
c = 3 /* only */
dd = 4
