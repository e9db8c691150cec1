# Incorrect attribute value type: An element that cannot convert is an error on the whole attribute value.

diagnostics {
  error {
    # Incorrect attribute value type
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 15
      byte   = 14
    }
  }
}
