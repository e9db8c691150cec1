a = "${-1}"
b = {for k, v in x: k=>-v}
c = [for x in -y: x]
d = [for x in y: x if -x]
e = a-b
f = 1-1
