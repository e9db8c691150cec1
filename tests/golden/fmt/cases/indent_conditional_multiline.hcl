x = (
a
? b
: c
)
y = (a ?
b : c)
