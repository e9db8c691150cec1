output "paths" {
  value = [path.module, path.root, path.cwd]
}
