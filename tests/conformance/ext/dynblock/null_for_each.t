diagnostics {
  error {
    # Invalid dynamic for_each value: Cannot use a null value in for_each.
    from {
      line   = 2
      column = 14
      byte   = 30
    }
    to {
      line   = 2
      column = 18
      byte   = 34
    }
  }
}
