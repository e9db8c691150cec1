# A settings block where an argument named settings is expected.

diagnostics {
  error {
    # Unsupported block type
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
