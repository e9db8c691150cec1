item {
  value = true
}
item {
  value = "true"
}
item {
  value = 5
}
