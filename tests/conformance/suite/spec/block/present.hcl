settings {
  level = 2
  mode  = "fast"
}
