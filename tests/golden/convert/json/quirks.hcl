# Cases where the shapes differ: hcl2json evaluates `-N` and `!B`, writes
# numbers as cty does, turns any conditional in a template into an %{if}
# directive, nests blocks as arrays, and sorts keys.
sum      = (a + b)
parens   = [(c)]
cond     = "${c ? "yes" : ""}"
keys     = { null = 1, 1.50 = 2, (k) = 3, a.b = 4, "%%{x}" = 5 }
neg      = -1.50
not      = !true
nested   = f(g(x))
number   = 1.0e2
strip    = "a ${~ b ~} c"
only     = "${1}"
zebra    = 1
service "web" {
  port = 80
}
service "db" {
  port = 5432
}
service "web" {
  port = 8080
}
