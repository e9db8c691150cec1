resource "terraform_data" "x" {
  input = 1
}

output "o" {
  value = terraform_data.x.input
}
