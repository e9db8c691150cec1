t  = p
d1 = null
d2 = q
