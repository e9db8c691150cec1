a = 1 # one
bbbb = 22 // two
c = 333 # three

d = 1 # x
e = 2
f = 3 # y
