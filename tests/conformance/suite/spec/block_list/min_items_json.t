# Insufficient rule blocks in JSON: at the root object's closing brace.

diagnostics {
  error {
    # Insufficient rule blocks
    from {
      line   = 3
      column = 1
      byte   = 17
    }
    to {
      line   = 3
      column = 2
      byte   = 18
    }
  }
}
