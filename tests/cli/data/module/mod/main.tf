variable "name" {
  type = string
}
output "cidrs" {
  value = [for i in range(2) : cidrsubnet("10.0.0.0/16", 8, i)]
}
