# A resource's pre- and postconditions as terraform validate evaluates them
# (validateCheckRules): each condition and error message on its own, with
# count.index / each.* unknown and self allowed in postconditions.
variable "name" {
  type    = string
  default = "x"
}

variable "n" {
  type    = number
  default = 2
}

resource "terraform_data" "ok" {
  input = var.name

  lifecycle {
    precondition {
      condition     = length(var.name) > 0
      error_message = "The name must not be empty, got ${var.name}."
    }
    postcondition {
      condition     = self.output != null
      error_message = "No output."
    }
  }
}

resource "terraform_data" "undeclared" {
  lifecycle {
    precondition {
      condition     = var.nope != ""
      error_message = "Uses ${var.nope}."
    }
  }
}

resource "terraform_data" "types" {
  lifecycle {
    precondition {
      condition     = "a" + var.n > 0
      error_message = "Message ${[1, 2]}."
    }
    postcondition {
      condition     = nosuchfunc(var.n)
      error_message = upper(1, 2)
    }
  }
}

resource "terraform_data" "counted" {
  count = var.n

  lifecycle {
    precondition {
      condition     = count.index >= 0
      error_message = "Index ${count.index}."
    }
    precondition {
      condition     = each.key != ""
      error_message = "No each here."
    }
  }
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b"])

  lifecycle {
    postcondition {
      condition     = each.value == self.input && terraform_data.missing.id != ""
      error_message = "Key ${each.key}."
    }
  }
}

resource "terraform_data" "self_pre" {
  lifecycle {
    precondition {
      condition     = self.input == null
      error_message = "Self in a precondition."
    }
  }
}

resource "terraform_data" "refs" {
  lifecycle {
    precondition {
      condition     = terraform_data.ok.output == var.name && local.undefined
      error_message = "Refers to ${terraform_data.ok.nope}."
    }
  }
}
