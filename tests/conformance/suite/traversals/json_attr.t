# In JSON, references inside string templates are reported at their positions in the string.

result_type = object({
  a = string
  b = string
})
result = {
  a = "B"
  b = "Z-x"
}

traversals {
  expect {
    ref = foo.bar
    from {
      line   = 2
      column = 11
      byte   = 12
    }
    to {
      line   = 2
      column = 18
      byte   = 19
    }
  }

  expect {
    ref = baz
    from {
      line   = 3
      column = 11
      byte   = 33
    }
    to {
      line   = 3
      column = 14
      byte   = 36
    }
  }
}
