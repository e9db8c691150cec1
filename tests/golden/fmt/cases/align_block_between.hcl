a = 1
blk {
x = 1
yyy = 2
}
bbbbbb = 2
c = 3
