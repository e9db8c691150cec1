# Extraneous label for service: on the second label.

diagnostics {
  error {
    # Extraneous label for service
    from {
      line   = 1
      column = 15
      byte   = 14
    }
    to {
      line   = 1
      column = 22
      byte   = 21
    }
  }
}
