variable {
  default = 1
}
variable "a" "b" {
}
resource "terraform_data" {
}
locals "x" {
  y = 1
}
output "o" "p" {
  value = 1
}
foo "bar" {
}
top_attr = 1
