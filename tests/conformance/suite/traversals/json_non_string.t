# In JSON, only strings are templates: a number and an object key reference nothing.

result_type = object({
  m = map(string)
  n = number
})
result = {
  m = {
    x = "1"
    y = "plain"
  }
  n = 5
}

traversals {
  expect {
    ref = x
    from {
      line   = 3
      column = 17
      byte   = 28
    }
    to {
      line   = 3
      column = 18
      byte   = 29
    }
  }
}
