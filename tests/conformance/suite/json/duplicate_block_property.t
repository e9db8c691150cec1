# Duplicate settings block: on the second property's object.

diagnostics {
  error {
    # Duplicate settings block
    from {
      line   = 5
      column = 15
      byte   = 48
    }
    to {
      line   = 5
      column = 16
      byte   = 49
    }
  }
}
