# Iteration symbols of a for expression are local: only the collection is reported.

result_type = list(string)
result = ["0-a", "1-b"]

traversals {
  expect {
    ref = items
    from {
      line   = 1
      column = 22
      byte   = 21
    }
    to {
      line   = 1
      column = 27
      byte   = 26
    }
  }

  expect {
    ref = sep
    from {
      line   = 1
      column = 37
      byte   = 36
    }
    to {
      line   = 1
      column = 40
      byte   = 39
    }
  }
}
