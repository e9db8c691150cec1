port = "eighty"
