outer {
  name = "o"
  inner {
    depth = 2
  }
}
