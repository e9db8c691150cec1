# Test files with mistakes: terraform validate reads *.tftest.hcl and
# *.tftest.json here and in tests/, and stops at their errors.
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
