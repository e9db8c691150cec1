# Duplicate settings block in JSON: two array elements share the array's opening bracket.

diagnostics {
  error {
    # Duplicate settings block
    from {
      line   = 2
      column = 15
      byte   = 16
    }
    to {
      line   = 2
      column = 16
      byte   = 17
    }
  }
}
