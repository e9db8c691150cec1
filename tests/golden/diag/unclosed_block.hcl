outer {
  inner {
    a = 1
  }
