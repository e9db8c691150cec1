a = [for x in[1,2]: x]
b = [for x in (y): x]
c = [for k,v in[1]: k]
d = [for x in y: x if (x)]
