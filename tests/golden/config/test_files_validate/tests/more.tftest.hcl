run "more" {
  command = plan

  expect_failures = [count.index, each.key, self, module.child["k"].v, output]
}

run "bad_ref" {
  command = plan

  expect_failures = [plan.x]
}
