arith = (1 + 2) * 3 % 5
cond  = 1 < 2 ? "yes" : "no"
for   = { for k, v in { a = 1, b = 2 } : "${k}!" => v * 10 if v > 1 }
splat = [{ n = "x" }, { n = "y" }][*].n
