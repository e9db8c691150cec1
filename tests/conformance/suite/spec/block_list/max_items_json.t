# Too many rule blocks in JSON: on the opening brace of the third array element.

diagnostics {
  error {
    # Too many rule blocks
    from {
      line   = 2
      column = 21
      byte   = 22
    }
    to {
      line   = 2
      column = 22
      byte   = 23
    }
  }
}
