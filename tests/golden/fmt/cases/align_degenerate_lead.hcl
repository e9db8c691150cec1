a[0] = 1
foo.bar = 2
x = 3
