# References inside a single block are reported with their positions in the block.

result_type = object({
  listen = number
})
result = {
  listen = 81
}

traversals {
  expect {
    ref = port
    from {
      line   = 2
      column = 12
      byte   = 20
    }
    to {
      line   = 2
      column = 16
      byte   = 24
    }
  }
}
