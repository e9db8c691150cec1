blk {
x = "${foo(
a,
b
)}"
}
