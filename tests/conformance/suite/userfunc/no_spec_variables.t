# Error in function call: base is unknown inside the body; reported on the call.

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
      column = 15
      byte   = 14
    }
  }
}
