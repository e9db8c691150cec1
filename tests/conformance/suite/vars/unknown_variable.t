# Unknown variable: on the variable name.

diagnostics {
  error {
    # Unknown variable
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 12
      byte   = 11
    }
  }
}
