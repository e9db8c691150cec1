first = "Ada"
last  = "Lovelace"
