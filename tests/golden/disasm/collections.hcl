tuple  = [a, b]
object = { name = a, (b) = c, "key" = 1 }
ambig  = { a.b = 1 }
for_t  = [for i, v in xs : "${i}=${v}" if v != ""]
for_o  = { for p in people : p.dept => p.name... }
splat  = people[*].name
legacy = people.*.id
nested = [for x in xs : [for y in x : y]]
static = { name = a, "tags" = { env = b }, name = c }
