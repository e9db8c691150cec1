v = obj.b
