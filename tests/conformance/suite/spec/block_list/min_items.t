# Insufficient rule blocks (1 of at least 2): at the body's missing-item position.

diagnostics {
  error {
    # Insufficient rule blocks
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 1
      byte   = 0
    }
  }
}
