a {
b = 1
c {
d = 2
