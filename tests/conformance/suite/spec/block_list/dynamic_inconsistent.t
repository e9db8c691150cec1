# A number and a tuple cannot be unified: error on the first block's value.

diagnostics {
  error {
    # Unconsistent argument types in item blocks
    from {
      line   = 2
      column = 11
      byte   = 17
    }
    to {
      line   = 2
      column = 12
      byte   = 18
    }
  }
}
