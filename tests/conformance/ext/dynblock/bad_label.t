diagnostics {
  error {
    # Invalid dynamic block label: Cannot use this value as a dynamic block label: string required.
    from {
      line   = 3
      column = 15
      byte   = 51
    }
    to {
      line   = 3
      column = 27
      byte   = 63
    }
  }
  error {
    # Invalid dynamic block label: Cannot use this value as a dynamic block label: string required.
    from {
      line   = 3
      column = 15
      byte   = 51
    }
    to {
      line   = 3
      column = 27
      byte   = 63
    }
  }
}
