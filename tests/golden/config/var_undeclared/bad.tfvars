declared = "x"
block {
}
