a = "${x}b"
b = "a${x}"
c = "${x}${y}"
d = "%{if x}y%{endif}"
e = ["${x}"]
f = { k = "${x}" }
g = <<EOT
${x}
EOT
h = "${x} "
i = "${"${x}"} "
