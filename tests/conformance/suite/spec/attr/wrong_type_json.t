# Incorrect attribute value type in JSON: on the string value, quotes included.

diagnostics {
  error {
    # Incorrect attribute value type
    from {
      line   = 1
      column = 10
      byte   = 9
    }
    to {
      line   = 1
      column = 18
      byte   = 17
    }
  }
}
