# Unknown variable in a JSON template: on the name inside the interpolation.

diagnostics {
  error {
    # Unknown variable
    from {
      line   = 1
      column = 10
      byte   = 9
    }
    to {
      line   = 1
      column = 17
      byte   = 16
    }
  }
}
