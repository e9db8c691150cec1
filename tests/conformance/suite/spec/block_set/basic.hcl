tag {
  key   = "env"
  value = "prod"
}
tag {
  key   = "team"
  value = "core"
}
tag {
  key   = "env"
  value = "prod"
}
