# Unsupported argument: a literal root spec accepts no input content.

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
      column = 2
      byte   = 1
    }
  }
}
