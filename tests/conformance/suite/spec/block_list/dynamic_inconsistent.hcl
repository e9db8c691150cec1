item {
  value = 1
}
item {
  value = [1]
}
