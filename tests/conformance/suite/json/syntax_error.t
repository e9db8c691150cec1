# A trailing comma: two errors, the comma and the root value.

diagnostics {
  error {
    # Trailing comma in object
    from {
      line   = 2
      column = 9
      byte   = 10
    }
    to {
      line   = 2
      column = 10
      byte   = 11
    }
  }
  error {
    # Root value must be object
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 2
      byte   = 1
    }
  }
}
