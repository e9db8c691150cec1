# Incorrect attribute value type: In JSON, an object lacking an attribute of the object type cannot convert.

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
