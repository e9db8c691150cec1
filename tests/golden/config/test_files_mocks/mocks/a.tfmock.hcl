mock_resource "terraform_data" {
  defaults = {
    id = "a"
  }
}

override_resource {
  target = terraform_data.r
}
