# Traversals are one instruction with an inline cache per attribute step.
root     = var
chain    = var.a.b[0]["k"]
legacy   = var.list.0
relative = (var).a.b
index    = var.list[var.i]
