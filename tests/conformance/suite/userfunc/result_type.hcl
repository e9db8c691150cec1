as_list = pair(1, "x")
as_any  = pair(1, "x")
