# Only attributes in the spec's schema are scanned; an extra one is an error when decoding.

diagnostics {
  error {
    # Unsupported argument
    from {
      line   = 2
      column = 1
      byte   = 6
    }
    to {
      line   = 2
      column = 2
      byte   = 7
    }
  }
}

traversals {
  expect {
    ref = x
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 6
      byte   = 5
    }
  }
}
