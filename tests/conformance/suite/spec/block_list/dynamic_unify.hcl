item {
  value = 1
}
item {
  value = "one"
}
