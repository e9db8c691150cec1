a = b.
c = d."e"
f = g.*.*
h = i.0.1
