# Marks (DMARK) are emitted only when an operand may report a diagnostic.
arith   = a * 2 + 1
logic   = a && b || !c
compare = a.x == b[0]
local   = [for x in xs : x * 2 + 1]
neg     = -a
