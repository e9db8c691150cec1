a = 1+2*3/4%5
b = x==y&&z!=w||v
c = x<y
d = x>=y
e = x<=y
f = x>y
g = 1-2
