# Insufficient tag blocks (2 of at least 3).

diagnostics {
  error {
    # Insufficient tag blocks
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
