# Insufficient rule blocks when there are none at all.

diagnostics {
  error {
    # Insufficient rule blocks
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 1
      byte   = 0
    }
  }
}
