# Variables not allowed: the spec declares neither variables nor functions.

diagnostics {
  error {
    # Variables not allowed
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 6
      byte   = 5
    }
  }
}
