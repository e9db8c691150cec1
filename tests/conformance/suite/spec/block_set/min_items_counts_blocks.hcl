tag {
  key = "a"
}
tag {
  key = "a"
}
