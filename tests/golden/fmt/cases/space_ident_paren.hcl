a = f (1)
b = x ? (1) : (2)
c = 1 + (2)
d = [for x in y: x if (x)]
e = "%{if (a)}b%{endif}"
