v = true
