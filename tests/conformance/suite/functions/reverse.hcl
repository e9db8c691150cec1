in = "héllo"
