x.y[0] ? (z) : [1, true, null]
