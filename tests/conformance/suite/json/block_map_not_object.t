# Incorrect JSON value type: a number where a block body is expected.

diagnostics {
  error {
    # Incorrect JSON value type
    from {
      line   = 3
      column = 13
      byte   = 29
    }
    to {
      line   = 3
      column = 15
      byte   = 31
    }
  }
}
