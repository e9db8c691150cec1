# Duplicate route block: the pair eu/a repeats; eu/b is fine.

diagnostics {
  error {
    # Duplicate route block
    from {
      line   = 3
      column = 1
      byte   = 36
    }
    to {
      line   = 3
      column = 15
      byte   = 50
    }
  }
}
