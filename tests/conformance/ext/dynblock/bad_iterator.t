diagnostics {
  error {
    # Invalid dynamic iterator name: Dynamic iterator must be a single variable name.
    from {
      line   = 3
      column = 14
      byte   = 47
    }
    to {
      line   = 3
      column = 18
      byte   = 51
    }
  }
}
