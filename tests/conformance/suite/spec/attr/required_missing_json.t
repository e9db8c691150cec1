# Missing required argument: reported at the closing brace of the JSON object.

diagnostics {
  error {
    # Missing required argument
    from {
      line   = 3
      column = 1
      byte   = 17
    }
    to {
      line   = 3
      column = 2
      byte   = 18
    }
  }
}
