diagnostics {
  error {
    # Invalid dynamic for_each value: Cannot use a string value in for_each. An iterable collection is required.
    from {
      line   = 2
      column = 14
      byte   = 30
    }
    to {
      line   = 2
      column = 19
      byte   = 35
    }
  }
}
