# Call to unknown function: the spec functions are not visible to the input.

diagnostics {
  error {
    # Call to unknown function
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 10
      byte   = 9
    }
  }
}
