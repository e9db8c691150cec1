variable "in" {}
module "grand" {
  source = "./grand"
}
output "paths" {
  value = [path.module, path.root, path.cwd]
}
output "grand_paths" {
  value = module.grand.paths
}
output "file_rel_module" {
  value = file("${path.module}/data.txt")
}
output "fileexists_cwd" {
  value = fileexists("data.txt")
}
output "in" {
  value = var.in
}
output "ws" {
  value = terraform.workspace
}
