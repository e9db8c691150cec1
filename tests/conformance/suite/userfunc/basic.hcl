v = double(21)
