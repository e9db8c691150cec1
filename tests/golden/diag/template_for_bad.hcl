a = "%{for 1 in y}%{endfor}"
b = "%{for x, in y}%{endfor}"
c = "%{for x on y}%{endfor}"
