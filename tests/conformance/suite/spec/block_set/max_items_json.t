# Too many tag blocks in JSON: on the second element's nested value.

diagnostics {
  error {
    # Too many tag blocks
    from {
      line   = 2
      column = 33
      byte   = 34
    }
    to {
      line   = 2
      column = 36
      byte   = 37
    }
  }
}
