variable "prefix" {
  type = string
}
output "ids" {
  value = [for i in range(2) : "${var.prefix}-${i}"]
}
output "path" {
  value = path.module
}
