a = "${
  foo
}"
b = "${cond
? x
: y}"
c = "${(
x
)}"
d = "${
  f(
    1)
}"
