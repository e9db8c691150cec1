# References in the arguments of a call to a user function are reported.

result_type = number
result = 16

traversals {
  expect {
    ref = n
    from {
      line   = 1
      column = 8
      byte   = 7
    }
    to {
      line   = 1
      column = 9
      byte   = 8
    }
  }
}
