dynamic "item" {
  for_each = [1]
  iterator = it.x
  content {
    v = 1
  }
}
