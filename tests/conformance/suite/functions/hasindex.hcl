in = { k = "v" }
