blk {
      a = <<EOT
  keep
	this
    EOT
    b = <<-EOT
        indented
      EOT
    }
