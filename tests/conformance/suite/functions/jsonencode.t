# jsonencode() writes values as JSON text.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = "{\"a\":null,\"b\":[1,\"x\"]}"
  tr = "{\"y\":2.5,\"z\":1}"
}
