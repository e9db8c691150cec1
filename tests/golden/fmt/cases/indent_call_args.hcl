x = foo(
a,
b,
)
y = foo(a,
b)
z = foo(a,
b
)
