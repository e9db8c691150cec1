diagnostics {
  error {
    # Incorrect attribute value type: Inappropriate value for attribute "svc": attribute "name" is required.
    from {
      line   = 1
      column = 7
      byte   = 6
    }
    to {
      line   = 3
      column = 2
      byte   = 23
    }
  }
}
