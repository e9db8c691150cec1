in = -7
