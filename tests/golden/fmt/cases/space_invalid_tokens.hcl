a = 1 @2
b = 'x'
c = 1;
d = `x`
e = x&y|z^w~v
f = 1
