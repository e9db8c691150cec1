module "child" {
  source = "./modules/child"
  in     = "from-root"
}
module "child2" {
  source = "./modules//child"
  in     = "second"
}
output "root_paths" {
  value = [path.module, path.root, path.cwd]
}
locals {
  ws = terraform.workspace
}
