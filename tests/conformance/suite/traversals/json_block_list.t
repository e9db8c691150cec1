# In JSON, references from every element of a block array are reported.

result_type = list(number)
result = [1, 2]

traversals {
  expect {
    ref = a
    from {
      line   = 3
      column = 14
      byte   = 27
    }
    to {
      line   = 3
      column = 15
      byte   = 28
    }
  }

  expect {
    ref = b.c
    from {
      line   = 4
      column = 14
      byte   = 46
    }
    to {
      line   = 4
      column = 17
      byte   = 49
    }
  }
}
