a = ! x
b = !(x)
c = ! ! x
d = x != y
