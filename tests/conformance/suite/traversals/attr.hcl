a = foo.bar
b = "${baz}-x"
