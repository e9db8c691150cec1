settings {
  level = 1
  color = "red"
}
