variable "name" {
  type = string
}
variable "num" {
  type    = number
  default = 1
}
output "greeting" {
  value = "hello ${var.name} ${var.num}"
}
output "secret" {
  value     = "s-${var.name}"
  sensitive = true
}
output "obj" {
  value = { n = var.num, name = var.name }
}
output "res" {
  value = terraform_data.r.id
}
resource "terraform_data" "r" {
  input = var.name
}
