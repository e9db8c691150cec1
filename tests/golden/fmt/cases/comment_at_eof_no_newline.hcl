a = 1 # x
bbb = 2 # y