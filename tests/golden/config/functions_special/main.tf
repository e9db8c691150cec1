locals {
  pts      = plantimestamp()
  ts       = timestamp()
  uid      = uuid()
  bc       = bcrypt("x")
  fromfile = file("hello.txt")
  tmpl     = templatefile("tmpl.tftpl", { name = "N", items = ["a", "b"] })
  ts_str   = templatestring(local.tstr, { name = "S" })
  tstr     = "Hi $${name}"
}
