# Extraneous JSON object property inside a block's object.

diagnostics {
  error {
    # Extraneous JSON object property
    from {
      line   = 4
      column = 5
      byte   = 38
    }
    to {
      line   = 4
      column = 12
      byte   = 45
    }
  }
}
