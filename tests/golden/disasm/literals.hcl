# Literals and constant folding: every closed expression becomes one CONST.
number   = 42
string   = "hello"
folded   = 1 + 2 * 3
template = "a${1 + 1}b"
tuple    = [1, "two", true, null]
object   = { a = 1, b = [2, 3] }
for      = [for x in [1, 2, 3] : x * 2 if x > 1]
splat    = [{ a = 1 }, { a = 2 }][*].a
# A closed expression that reports an error is compiled, not folded.
error    = 1 + "a"
