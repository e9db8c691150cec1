tag {
  key = "a"
}
tag {
  key = "b"
}
