# Missing settings block: reported at the closing brace of the JSON object.

diagnostics {
  error {
    # Missing settings block
    from {
      line   = 1
      column = 13
      byte   = 12
    }
    to {
      line   = 1
      column = 14
      byte   = 13
    }
  }
}
