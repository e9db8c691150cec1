diagnostics {
  error {
    # Unexpected "nested" block: Blocks are not allowed here.
    from {
      line   = 4
      column = 3
      byte   = 28
    }
    to {
      line   = 4
      column = 9
      byte   = 34
    }
  }
  error {
    # Invalid attribute value: Invalid value for attribute of "env" block: a number is required.
    from {
      line   = 3
      column = 7
      byte   = 20
    }
    to {
      line   = 3
      column = 12
      byte   = 25
    }
  }
  error {
    # Missing must block: A block of type "must" is required here.
    from {
      line   = 1
      column = 1
      byte   = 0
    }
    to {
      line   = 1
      column = 1
      byte   = 0
    }
  }
}
