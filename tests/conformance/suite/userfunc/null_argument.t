# Invalid function argument: null for a user function parameter.

diagnostics {
  error {
    # Invalid function argument
    from {
      line   = 1
      column = 16
      byte   = 15
    }
    to {
      line   = 1
      column = 20
      byte   = 19
    }
  }
}
