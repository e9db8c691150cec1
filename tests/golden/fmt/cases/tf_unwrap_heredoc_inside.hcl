a = "${<<EOT
hi
EOT
}"
