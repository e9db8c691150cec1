/* a
b */ x = 1
yy = 2 # c
z = 3 # d
