call    = upper(name)
args    = format("%s-%d", a, b)
expand  = max(a, xs...)
try     = try(a.b, "default")
can     = can(a.b)
in_for  = [for x in xs : upper(x)]
