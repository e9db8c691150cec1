a = x . y . z
b = x.0
c = 1.5 + 2e3
d = x["k"] .y
