v = plus_base(1)
