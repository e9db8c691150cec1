v = upper(x)
