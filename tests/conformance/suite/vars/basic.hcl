where    = region
how_many = count * 2
