# Missing required argument: reported at the start of the native syntax body.

diagnostics {
  error {
    # Missing required argument
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 1
      byte   = 0
    }
  }
}
