# Incorrect attribute value type: Values that cannot all convert to the map element type are an error.

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
      column = 23
      byte   = 22
    }
  }
}
