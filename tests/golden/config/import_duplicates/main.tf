# Two import blocks to one resource instance (keys compared as written: [0] is not ["0"]).
resource "terraform_data" "a" {
  count = 2
}
import {
  to = terraform_data.a[0]
  id = "x"
}
import {
  to = terraform_data.a[0]
  id = "y"
}
import {
  to = terraform_data.a["0"]
  id = "z"
}
import {
  to = terraform_data.a[1]
  id = "x"
}
