# Blocks of type "thing" are not expected here.

diagnostics {
  error {
    # Unsupported block type
    from {
      line   = 3
      column = 1
      byte   = 15
    }
    to {
      line   = 3
      column = 6
      byte   = 20
    }
  }
}
