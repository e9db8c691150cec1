# Missing inner block in JSON: on the outer object's closing brace.

diagnostics {
  error {
    # Missing inner block
    from {
      line   = 3
      column = 3
      byte   = 17
    }
    to {
      line   = 3
      column = 4
      byte   = 18
    }
  }
}
