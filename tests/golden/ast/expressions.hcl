arith   = -a + b * (c - 1) / 2 % 3
logic   = !x && y || z == w != v
compare = a < b && b <= c && c > d && d >= e
cond    = a ? b : c ? d : e
trav    = var.list[0].name["key"].legacy.0
index   = m[local.key].x
splat   = items[*].id
asplat  = items.*.tags.Name
nested  = a[*].b[*].c
call    = join(",", concat(xs, ys)...)
ns      = provider::aws::arn_parse(arn)
tuple   = [1, "two", [3], {four = 4}]
object  = { a = 1, "b" = 2, (k) = 3, c: 4 }
for_t   = [for i, v in list : v * i if v > 0]
for_o   = { for k, v in map : upper(k) => v... if v != null }
num     = 1.5e-3
