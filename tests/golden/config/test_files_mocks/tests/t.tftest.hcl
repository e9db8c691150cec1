run "apply" {
  assert {
    condition     = terraform_data.r.input == var.name
    error_message = "Input mismatch."
  }
}
