# Too many tag blocks: on the second block's nested value (the nested spec's source range).

diagnostics {
  error {
    # Too many tag blocks
    from {
      line   = 5
      column = 9
      byte   = 34
    }
    to {
      line   = 5
      column = 12
      byte   = 37
    }
  }
}
