settings = {}
