# Unsupported argument inside a block body.

diagnostics {
  error {
    # Unsupported argument
    from {
      line   = 3
      column = 3
      byte   = 25
    }
    to {
      line   = 3
      column = 8
      byte   = 30
    }
  }
}
