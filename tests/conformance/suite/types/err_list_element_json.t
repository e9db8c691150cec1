# Incorrect attribute value type: In JSON, an element that cannot convert is an error on the whole array value.

diagnostics {
  error {
    # Incorrect attribute value type
    from {
      line   = 1
      column = 7
      byte   = 6
    }
    to {
      line   = 1
      column = 17
      byte   = 16
    }
  }
}
