# Not enough function arguments in a JSON template: on the closing parenthesis.

diagnostics {
  error {
    # Not enough function arguments
    from {
      line   = 1
      column = 15
      byte   = 14
    }
    to {
      line   = 1
      column = 16
      byte   = 15
    }
  }
}
