# Every branch of a conditional is scanned for references, taken or not.

result_type = string
result = "y"

traversals {
  expect {
    ref = flag
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 9
      byte   = 8
    }
  }

  expect {
    ref = yes
    from {
      line   = 1
      column = 12
      byte   = 11
    }
    to {
      line   = 1
      column = 15
      byte   = 14
    }
  }

  expect {
    ref = no
    from {
      line   = 1
      column = 18
      byte   = 17
    }
    to {
      line   = 1
      column = 20
      byte   = 19
    }
  }
}
