# Duplicate service block: on the second element's opening brace.

diagnostics {
  error {
    # Duplicate service block
    from {
      line   = 3
      column = 12
      byte   = 28
    }
    to {
      line   = 3
      column = 13
      byte   = 29
    }
  }
}
