name      = "web"
memory_mb = 64

listener {
  port = "eighty"
}
