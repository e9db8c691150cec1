a = "from a"
b = "from b"
