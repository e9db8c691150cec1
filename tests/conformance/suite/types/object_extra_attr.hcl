v = { name = "web", extra = true }
