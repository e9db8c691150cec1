a = {b}
c = {d e}
f = {g = 1 h = 2}
