# References from both blocks of a block list.

result_type = list(number)
result = [1, 2]

traversals {
  expect {
    ref = a
    from {
      line   = 2
      column = 7
      byte   = 13
    }
    to {
      line   = 2
      column = 8
      byte   = 14
    }
  }

  expect {
    ref = b.c
    from {
      line   = 5
      column = 7
      byte   = 30
    }
    to {
      line   = 5
      column = 10
      byte   = 33
    }
  }
}
