resource "terraform_data" "inner" {
}

output "v" {
  value = 1
}
