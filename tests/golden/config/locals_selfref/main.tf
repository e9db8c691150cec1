locals {
  self_ref = local.self_ref
  other    = "${local.self_ref}-x"
}
