step {
  n = 1
}

dynamic "step" {
  for_each = [2, 3]
  content {
    n = step.value
  }
}

step {
  n = 4
}
