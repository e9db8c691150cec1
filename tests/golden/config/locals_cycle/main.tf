locals {
  a = local.b
  b = local.c
  c = local.a
  ok = "fine"
}
