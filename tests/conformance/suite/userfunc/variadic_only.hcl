empty  = total()
spread = total([4, 9, 2]...)
