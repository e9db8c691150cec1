ports = [80]
