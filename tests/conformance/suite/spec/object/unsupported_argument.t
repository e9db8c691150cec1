# An argument named "other" is not expected here.

diagnostics {
  error {
    # Unsupported argument
    from {
      line   = 2
      column = 1
      byte   = 14
    }
    to {
      line   = 2
      column = 6
      byte   = 19
    }
  }
}
