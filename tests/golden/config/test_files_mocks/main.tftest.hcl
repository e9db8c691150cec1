variables {
  name = "y"
}

mock_provider "terraform" {
  source = "./mocks"
}

mock_provider "terraform" {
  alias  = "missing"
  source = "./no-such-dir"
}

run "plan" {
  command = plan

  plan_options {
    mode    = normal
    refresh = true
    target  = [terraform_data.r]
  }

  variables {
    name = "z"
  }

  assert {
    condition     = output.o == "z"
    error_message = "Wrong output."
  }

  expect_failures = [var.name]
}

override_resource {
  target = terraform_data.r
  values = {
    output = "mocked"
  }
}
