x = join(",", [<<EOT
line
EOT
,
"b"])
y = 1
