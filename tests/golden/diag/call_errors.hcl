a = f(1 2)
b = f(x..., y)
c = f(1,
