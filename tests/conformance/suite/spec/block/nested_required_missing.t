# Missing inner block: an empty range at the outer block's opening brace.

diagnostics {
  error {
    # Missing inner block
    from {
      line   = 1
      column = 7
      byte   = 6
    }
    to {
      line   = 1
      column = 7
      byte   = 6
    }
  }
}
