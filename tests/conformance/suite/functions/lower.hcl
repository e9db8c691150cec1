in = "ÇA VA"
