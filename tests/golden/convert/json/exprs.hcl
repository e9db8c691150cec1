# Literals become JSON values, tuples arrays, objects objects; anything
# else a "${...}" template of its source text.
n_int      = 42
n_float    = 3.25
n_exp      = 1e3
n_neg      = -7
n_negzero  = -0
n_zeros    = 007
n_big      = 123456789012345678901234567890.5
t          = true
f          = false
nothing    = null
list       = [1, "two", var.three, [4], { five = 5 }]
obj        = { a = 1, "b c" = 2, (var.k) = 3, 4 = 5, null = 6, true = 7, "${var.p}q" = 8 }
dup        = { a = 1, a = 2 }
providers  = { aws.east = aws.west }
call       = merge(var.a, { b = 1 })
multiline  = concat(
  # a comment inside
  var.a,
  var.b, // another
)
cond       = var.x > 1 ? "big" : "small"
loop       = [for i, v in var.l : v * 2 if i > 0]
loopobj    = { for k, v in var.m : upper(k) => v... }
splat      = aws_instance.web[*].id
index      = var.list[0]["key"].attr
ops        = !var.a && (var.b || 1 + 2 * 3 >= 4)
heredoc_in = jsonencode(<<EOT
raw ${var.x}
EOT
)
