resource aws_instance web {
}
blk a "b" c {}
