locals {
  bad     = 1 + "a"
  depends = "${local.bad}-x"
  fine    = "fine"
  badref  = local.nosuch
  idx     = [1, 2][5]
}
