a	= 1
block {
	b = 2 3
}
