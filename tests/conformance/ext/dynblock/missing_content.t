diagnostics {
  error {
    # Missing dynamic content block: A dynamic block must have a nested block of type "content" to describe the body of each generated block.
    from {
      line   = 1
      column = 16
      byte   = 15
    }
    to {
      line   = 1
      column = 16
      byte   = 15
    }
  }
}
