# Insufficient rule blocks in JSON when there are none at all.

diagnostics {
  error {
    # Insufficient rule blocks
    from {
      line   = 3
      column = 1
      byte   = 11
    }
    to {
      line   = 3
      column = 2
      byte   = 12
    }
  }
}
