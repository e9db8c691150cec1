# Dynamic blocks in the body of a resource type Terraform has built in (which
# takes no nested block): unsupported whatever their for_each, unless the
# arguments' references fail first; their content is not read.
variable "v" {
  type    = list(string)
  default = ["a"]
}
resource "terraform_data" "a" {
  dynamic "x" {
    for_each = var.v
    content {
      y = x.value
    }
  }
}
resource "terraform_data" "b" {
  dynamic "x" {
    for_each = ["a", "b"]
    content {
      y = x.value
    }
  }
}
resource "terraform_data" "c" {
  dynamic "x" {
    for_each = var.nope
    content {
      y = x.value
    }
  }
}
resource "terraform_data" "d" {
  dynamic "x" {
    for_each = []
    content {}
  }
}
resource "terraform_data" "e" {
  input = 1
  dynamic "input" {
    for_each = [1]
    content {}
  }
}

resource "terraform_data" "f" {
  dynamic "x" {
    for_each = [1]
    content {
      y = var.nope2
    }
  }
}
resource "terraform_data" "g" {
  input = var.nope3
  dynamic "x" {
    for_each = [1]
    content {}
  }
}
resource "terraform_data" "h" {
  input = var.nope4
  dynamic "x" {
    for_each = var.nope5
    content {}
  }
}
