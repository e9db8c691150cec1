# Incorrect attribute value type in the second block of a list.

diagnostics {
  error {
    # Incorrect attribute value type
    from {
      line   = 5
      column = 10
      byte   = 36
    }
    to {
      line   = 5
      column = 13
      byte   = 39
    }
  }
}
