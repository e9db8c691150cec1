in = "mixed Case"
