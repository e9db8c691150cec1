# Blocks only: an evaluation of this file evaluates nothing.
resource "terraform_data" "x" {}
