variables {
  name = "y"
}

variables {
  other = 1
}

variable "nope" {}

run "first" {
  command = plan

  assert {
    condition     = true
    error_message = "constant"
  }

  skip_cleanup = true
}

run "first" {
  command = "apply"
}

run "bad name!" {
  plan_options {
    mode    = refresh-only
    refresh = false
  }

  plan_options {
    mode = fast
  }

  variables {
    a = 1
  }

  variables {
    b = 2
  }

  module {
    source = "git::https://example.com/m.git"
  }

  module {
    version = "1.0.0"
  }

  expect_failures = [var.name, "output.o"]
  state_key       = 5
}

provider "terraform" {
  version = "1.0"
}

provider "terraform" {
}

mock_provider "Test" {
}

mock_provider "test" {
  alias = "b"
  override_during = later

  mock_resource "test_x" {
    defaults = { id = upper("x") }
  }

  mock_resource "test_x" {
  }

  override_resource {
    target = module.child
  }
}

override_data {
  target = terraform_data.r
  values = "not an object"
}

override_resource {
  values = {}
}

override_module {
  target  = module.child
  outputs = { a = var.name }
}

override_module {
  target = module.child
}
