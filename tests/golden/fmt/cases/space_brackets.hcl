a = [ 1 ]
b = ( 1 )
c = {a=1}
d = {}
e = {   }
f = [ ]
g = f( x )
h = f ( x )
i = { }
