dynamic "group" {
  for_each = [["a", "b"], ["c"]]
  iterator = g
  content {
    name = "g${g.key}"
    dynamic "member" {
      for_each = g.value
      iterator = m
      content {
        id = "${g.key}.${m.key}=${m.value}"
      }
    }
  }
}
