node "a" {
  id = label("a", 1)
}
node "b" {
  id = label("b", 2)
}
