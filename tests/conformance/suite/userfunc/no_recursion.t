# Error in function call: outer's body cannot see inner; reported on the call in the input.

diagnostics {
  error {
    # Error in function call
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 11
      byte   = 10
    }
  }
}
