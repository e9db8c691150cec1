item {
  n = a
}
item {
  n = b.c * 1
}
