# Not enough function arguments: on the closing parenthesis.

diagnostics {
  error {
    # Not enough function arguments
    from {
      line   = 1
      column = 10
      byte   = 9
    }
    to {
      line   = 1
      column = 11
      byte   = 10
    }
  }
}
