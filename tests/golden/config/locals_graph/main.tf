variable "env" {
  default = "dev"
}
locals {
  name   = "${local.prefix}-${var.env}"
  prefix = upper(local.base)
  base   = "app"
  tags   = { for k, v in local.raw : k => upper(v) }
  raw    = { a = "x", b = local.base }
  list   = [for i in range(3) : "${local.name}-${i}"]
  nil    = null
  multi  = "line1\nline2\n"
  num    = 1 / 3
  big    = 12345678901234567890
  neg0   = -0
  inf    = 1 / 0
  uni    = "héllo \u00e9 \t tab \u0001 ctl"
  heredoc = <<-EOT
    indented
      more
    EOT
}
