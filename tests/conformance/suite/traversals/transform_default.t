# References under transform and default specs are reported too.

result_type = object({
  d = string
  t = string
})
result = {
  d = "other"
  t = "PRIMARY"
}

traversals {
  expect {
    ref = q
    from {
      line   = 3
      column = 6
      byte   = 22
    }
    to {
      line   = 3
      column = 7
      byte   = 23
    }
  }

  expect {
    ref = p
    from {
      line   = 1
      column = 6
      byte   = 5
    }
    to {
      line   = 1
      column = 7
      byte   = 6
    }
  }
}
