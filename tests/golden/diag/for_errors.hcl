a = [for 1 in x: 1]
b = [for x, 1 in y: 1]
c = [for x on y: 1]
d = [for x in y 1]
e = [for x in y: k => x]
f = {for x in y: x}
g = [for x in y: x...]
h = [for x in y: x if]
