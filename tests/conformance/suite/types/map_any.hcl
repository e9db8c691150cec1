v = { a = true, b = "x" }
