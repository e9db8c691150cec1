0one { a = 1 }
# comment
// comment
/* block
comment */
b = [for k, v in m : "${k}=${v}" if v != null]
c = {for x in xs : x.id => x...}
