# Index steps with number and string keys appear in the reported traversals.

result_type = object({
  a = string
  b = string
})
result = {
  a = "one"
  b = "value"
}

traversals {
  expect {
    ref = list[1]
    from {
      line   = 1
      column = 5
      byte   = 4
    }
    to {
      line   = 1
      column = 12
      byte   = 11
    }
  }

  expect {
    ref = m["key"]
    from {
      line   = 2
      column = 5
      byte   = 16
    }
    to {
      line   = 2
      column = 13
      byte   = 24
    }
  }
}
