# Provider blocks' names (checkProviderNameNormalized on the block's header)
# and rules that refer to their own resource (validateSelfReferences).
provider "TEST" {}
provider "" {}
provider "bad_name" {}
resource "terraform_data" "me" {
  input = 5
  lifecycle {
    precondition {
      condition     = terraform_data.me.input == 5
      error_message = "Must be five, not ${terraform_data.me.input}."
    }
    postcondition {
      condition     = self.input == 5
      error_message = "Must be five, but is ${terraform_data.me.output}."
    }
  }
}
data "terraform_remote_state" "me" {
  backend = "local"
  lifecycle {
    precondition {
      condition     = data.terraform_remote_state.me.outputs != null
      error_message = "x"
    }
  }
}
