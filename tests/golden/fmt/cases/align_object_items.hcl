o = {
a = 1
bbb = 2
"quoted key" = 3
(k) = 4
c: 5
dddddd: 6
}
