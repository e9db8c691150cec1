resource "terraform_data" "c" {
}

output "x" {
  value = provider::terraform::encode_expr(1)
}
