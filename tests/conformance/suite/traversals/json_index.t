# In JSON templates, index steps with number and string keys are reported.

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
    ref = m["key"]
    from {
      line   = 3
      column = 11
      byte   = 33
    }
    to {
      line   = 3
      column = 19
      byte   = 41
    }
  }
}
