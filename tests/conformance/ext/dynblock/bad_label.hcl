dynamic "item" {
  for_each = [1, 2]
  labels   = [[item.value]]
  content {
    v = item.value
  }
}
