listener {
  port = 22
  tag  = "static"
}

dynamic "listener" {
  for_each = [80, 443]
  content {
    port = listener.value
    tag  = "dyn-${listener.key}"
  }
}
