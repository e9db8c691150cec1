a = b[1 2]
c = d[*
