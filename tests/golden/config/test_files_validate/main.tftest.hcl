mock_provider "terraform" {
  override_resource {
    target = terraform_data.missing
  }

  override_resource {
    target = terraform_data.r
  }
}

override_resource {
  target = module.child.terraform_data.inner
}

override_resource {
  target = module.child.terraform_data.nope
}

override_data {
  target = data.terraform_remote_state.gone
}

override_module {
  target = module.nowhere
}

override_module {
  target = module.child[0]
}

run "checks" {
  command = plan

  expect_failures = [
    var.name,
    output.o,
    check.c,
    terraform_data.r,
    data.terraform_remote_state.s,
    local.upper,
    module.child,
    module.child.v,
    path.module,
    run.other,
    terraform.workspace,
  ]

  override_resource {
    target = terraform_data.absent
  }

  override_data {
    target = data.terraform_remote_state.s
  }
}
