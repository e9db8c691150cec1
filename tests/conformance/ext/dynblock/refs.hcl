dynamic "zone" {
  for_each = zones
  iterator = z
  labels   = ["${prefix}-${z.value}"]
  content {
    id = "${z.value}-${suffix}"
  }
}
