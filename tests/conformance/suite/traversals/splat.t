# A splat reports the traversal of its source, not the per-element steps.

result_type = list(number)
result = [1, 2]

traversals {
  expect {
    ref = items
    from {
      line   = 1
      column = 7
      byte   = 6
    }
    to {
      line   = 1
      column = 12
      byte   = 11
    }
  }
}
