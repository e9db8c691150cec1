settings {
  a = "b"
}
