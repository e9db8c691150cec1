a = 1
# note
bbbb = 2
c = 3
