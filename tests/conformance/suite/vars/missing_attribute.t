# Unsupported attribute: on the .b step.

diagnostics {
  error {
    # Unsupported attribute
    from {
      line   = 1
      column = 8
      byte   = 7
    }
    to {
      line   = 1
      column = 10
      byte   = 9
    }
  }
}
