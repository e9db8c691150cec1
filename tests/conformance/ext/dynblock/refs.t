traversals {
  expect {
    ref = zones
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
  expect {
    ref = prefix
    from {
      line   = 4
      column = 18
      byte   = 68
    }
    to {
      line   = 4
      column = 24
      byte   = 74
    }
  }
  expect {
    ref = suffix
    from {
      line   = 6
      column = 24
      byte   = 124
    }
    to {
      line   = 6
      column = 30
      byte   = 130
    }
  }
}
result_type = map(string)
result = {
  p-a = "a-x"
  p-b = "b-x"
}
