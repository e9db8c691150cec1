# Duplicate service block: on the second block's header (type and labels).

diagnostics {
  error {
    # Duplicate service block
    from {
      line   = 4
      column = 1
      byte   = 30
    }
    to {
      line   = 4
      column = 14
      byte   = 43
    }
  }
}
