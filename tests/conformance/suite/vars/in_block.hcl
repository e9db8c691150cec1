listener {
  port = base + 1
}
listener {
  port = base + 2
}
