# depends_on as validate checks it: whole objects only, each reference evaluated
# outside count and for_each, the first error ending a list; a block whose
# dependencies failed is not checked.
module "m" {
  source     = "./child"
  depends_on = [terraform_data.a.id, local.nope]
}
module "n" {
  source     = "./child"
  depends_on = [module.m.x, module.nope, module.m]
}
resource "terraform_data" "a" {
  count      = 2
  depends_on = [count.index]
}
resource "terraform_data" "b" {
  for_each   = toset(["k"])
  depends_on = [each.key]
}
resource "terraform_data" "c" {
  depends_on = [terraform_data.b["k"], terraform_data.b]
}
resource "terraform_data" "d" {
  depends_on = [path.nope, terraform.workspace]
}
resource "terraform_data" "e" {
  depends_on = [data.terraform_remote_state.x, self]
}
output "o" {
  value      = module.n.x
  depends_on = [module.n, var.undeclared]
}
module "p" {
  source     = "./child"
  depends_on = [module.m.x.y, local.nope]
}
module "q" {
  source     = "./child"
  depends_on = [local.nope2]
}
resource "terraform_data" "f" {
  depends_on = [terraform_data.g.output]
}
resource "terraform_data" "g" {}
output "p" {
  value      = 1
  depends_on = [module.nope, var.x]
}
