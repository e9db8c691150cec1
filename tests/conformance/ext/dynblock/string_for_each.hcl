dynamic "item" {
  for_each = "abc"
  content {
    v = 1
  }
}
