env {
  A = 1
  B = "two"
  nested {
  }
}
