# A misspelt function gets Terraform's "Did you mean" in every kind of
# expression, but not inside a for expression (hcl's child scope there has
# no functions of its own).
locals {
  a = uppper("x")
  b = [for s in ["x"] : lowerr(s)]
}

output "o" {
  value = lenght([1])
}

resource "terraform_data" "r" {
  count = 2
  input = jsonencod({ i = count.index })
}

variable "v" {
  type    = string
  default = "x"
  validation {
    condition     = lenght(var.v) > 0
    error_message = "Empty."
  }
}
