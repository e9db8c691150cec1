# Missing name for route: on the opening brace, where the second label should be.

diagnostics {
  error {
    # Missing name for route
    from {
      line   = 1
      column = 12
      byte   = 11
    }
    to {
      line   = 1
      column = 13
      byte   = 12
    }
  }
}
