# Incorrect attribute value type: a string that is not a number, on the expression.

diagnostics {
  error {
    # Incorrect attribute value type
    from {
      line   = 1
      column = 8
      byte   = 7
    }
    to {
      line   = 1
      column = 16
      byte   = 15
    }
  }
}
