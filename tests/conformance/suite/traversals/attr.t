# --var-refs lists the variable references of the attributes the spec decodes.

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
    ref = baz
    from {
      line   = 2
      column = 8
      byte   = 19
    }
    to {
      line   = 2
      column = 11
      byte   = 22
    }
  }

  expect {
    ref = foo.bar
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
}
