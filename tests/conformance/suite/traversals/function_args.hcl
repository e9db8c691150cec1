v = sq(n)
