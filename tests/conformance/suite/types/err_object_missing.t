# Incorrect attribute value type: An object lacking an attribute of the object type cannot convert.

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
      column = 16
      byte   = 15
    }
  }
}
