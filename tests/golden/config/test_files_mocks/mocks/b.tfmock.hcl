mock_resource "terraform_data" {
  defaults = {
    id = "b"
  }
}

mock_data "terraform_remote_state" {
}

override_resource {
  target = terraform_data.r
  override_during = plan
}
