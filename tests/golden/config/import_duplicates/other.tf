import {
  to = terraform_data.a[0]
  id = "w"
}
import {
  to = terraform_data.b
  id = "w"
}
import {
  to = terraform_data.b
  id = "w2"
}
resource "terraform_data" "b" {}
