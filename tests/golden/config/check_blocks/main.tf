# check blocks: only asserts and data blocks decoded without errors count;
# nested data blocks take no count, for_each or lifecycle.
check "a" {
  data "terraform_remote_state" "s" {
    count   = 1
    backend = "local"
    lifecycle {
      postcondition {
        condition     = self.outputs != null
        error_message = "x"
      }
    }
  }
  data "terraform_remote_state" "t" {
    backend = "local"
  }
  assert {
    condition     = true
    error_message = "c"
  }
}
check "b" {
  data "terraform_remote_state" "u" {
    for_each = {}
    backend  = "local"
  }
  data "terraform_remote_state" "v" {
    backend = "local"
  }
  data "terraform_remote_state" "w" {
    backend = "local"
  }
  assert {
    condition     = data.terraform_remote_state.v.outputs != null
    error_message = "c"
  }
  assert {
    condition = 1
  }
}
data "terraform_remote_state" "x" {
  backend = "local"
  _ {}
  _ {}
}
