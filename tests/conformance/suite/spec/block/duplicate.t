# Duplicate settings block: on the second block's type name.

diagnostics {
  error {
    # Duplicate settings block
    from {
      line   = 4
      column = 1
      byte   = 25
    }
    to {
      line   = 4
      column = 9
      byte   = 33
    }
  }
}
