b "l" {
  t = "a${x}%{if c}y%{endif}"
}
f = g(a...)
o = {k = -1, (p) = [for i, v in l : v if i > 0]}
s = a[*].b[0] > 1 || !c.d["e"]
w = "${x}"
j = "%{for v in l}${v}%{endfor}"
