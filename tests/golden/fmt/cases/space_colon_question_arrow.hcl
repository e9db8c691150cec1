a = x?y:z
b = {a:1}
c = [for x in y:x]
d = {for k,v in m:k=>v}
