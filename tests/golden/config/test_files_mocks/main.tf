# Valid test files whose mock providers read mock data directories: one
# with two files declaring the same mocks, one that does not exist.
variable "name" {
  type    = string
  default = "x"
}

resource "terraform_data" "r" {
  input = var.name
}

output "o" {
  value = terraform_data.r.output
}
