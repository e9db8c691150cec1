# Three rule blocks in source order; attributes absent from a block are null.

result_type = object({
  rule = list(object({
    port = number
    proto = string
  }))
})
result = {
  rule = [{
    port = 80
    proto = "tcp"
  }, {
    port = 53
    proto = null
  }, {
    port = null
    proto = "icmp"
  }]
}
