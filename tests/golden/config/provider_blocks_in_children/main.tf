# Provider blocks in child modules: empty ones (proxy configurations) are
# redundant (a warning for each provider), and a module called with count,
# for_each or depends_on may not configure providers itself.
module "proxy" {
  source = "./proxy"
}

module "legacy" {
  source = "./legacy"
  count  = 1
}
