# Block labels are not references; the attributes inside labelled blocks are scanned.

result_type = map(string)
result = {
  v = "value"
}

traversals {
  expect {
    ref = v
    from {
      line   = 2
      column = 7
      byte   = 18
    }
    to {
      line   = 2
      column = 8
      byte   = 19
    }
  }
}
