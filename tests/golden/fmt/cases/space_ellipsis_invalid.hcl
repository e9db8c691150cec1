c = f(x ... , y)
