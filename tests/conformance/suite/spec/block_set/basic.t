# Three tag blocks, two of them equal: a set of two objects.

result_type = set(object({
  key = string
  value = string
}))
result = [{
  key = "env"
  value = "prod"
}, {
  key = "team"
  value = "core"
}]
