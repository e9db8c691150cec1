# A number and an array cannot be unified (JSON): error on the first block's value.

diagnostics {
  error {
    # Unconsistent argument types in item blocks
    from {
      line   = 2
      column = 22
      byte   = 23
    }
    to {
      line   = 2
      column = 23
      byte   = 24
    }
  }
}
