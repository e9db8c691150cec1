a = "${x}" # c1
bbb = "${y}" # c2
cc = "literal" # c3
