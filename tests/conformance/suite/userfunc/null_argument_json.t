# Invalid function argument in a JSON template: null for a user function parameter.

diagnostics {
  error {
    # Invalid function argument
    from {
      line   = 1
      column = 21
      byte   = 20
    }
    to {
      line   = 1
      column = 25
      byte   = 24
    }
  }
}
