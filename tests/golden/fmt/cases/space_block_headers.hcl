blk"a""b"{
}
blk   a    b  {
}
blk{}
blk{a=1}
