settings {
  level = 1
}
settings {
  level = 2
}
