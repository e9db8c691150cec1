# Function calls not allowed: the spec has variables but no user functions.

diagnostics {
  error {
    # Function calls not allowed
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 13
      byte   = 12
    }
  }
}
