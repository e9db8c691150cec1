a
b 1
