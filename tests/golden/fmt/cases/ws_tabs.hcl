blk {
	a	=	"x	y" #	c
	b = <<EOT
	keep
EOT
}
