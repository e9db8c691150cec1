# Extraneous label for settings: on the quoted label.

diagnostics {
  error {
    # Extraneous label for settings
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
