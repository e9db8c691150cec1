outer {
  name = "a"
  inner {
    v = 1
  }
  inner {
    v = 2
  }
}
outer {
  name = "b"
}
