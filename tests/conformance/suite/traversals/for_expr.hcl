names = [for i, x in items : "${i}${sep}${x.name}"]
