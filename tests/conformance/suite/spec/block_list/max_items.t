# Too many rule blocks: an empty range at the start of the third block's body (its opening brace).

diagnostics {
  error {
    # Too many rule blocks
    from {
      line   = 3
      column = 6
      byte   = 21
    }
    to {
      line   = 3
      column = 6
      byte   = 21
    }
  }
}
