a = 1
bbbbbb = {
x = 1
yyyy = {
z = 1
}
w = 2
}
c = 3
dd = [1,
2]
e = 5
