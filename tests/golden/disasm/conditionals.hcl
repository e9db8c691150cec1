# Both results constants of one type: only the chosen one runs.
static  = flag ? "yes" : "no"
# Otherwise both run (the result carries the marks of both, and their types
# are unified), and the diagnostics of the one not chosen are dropped.
numbers = a > b ? a + 1 : b - 1
general = flag ? a : b
nested  = a ? b ? 1 : 2 : 3
