input_block {
  v = "x"
}
