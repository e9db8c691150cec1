# An argument named settings where a settings block is expected.

diagnostics {
  error {
    # Unsupported argument
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 9
      byte   = 8
    }
  }
}
