blk { a = 1 }
blk2 {a=1}
blk3 "l" { }
