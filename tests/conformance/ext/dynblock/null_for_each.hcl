dynamic "item" {
  for_each = null
  content {
    v = 1
  }
}
