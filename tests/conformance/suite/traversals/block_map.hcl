thing "v" {
  x = v
}
