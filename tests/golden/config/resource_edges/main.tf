# A resource also depends on what its conditions, create-time provisioners,
# connection blocks and replace_triggered_by refer to: when that failed, it is skipped.
locals {
  bad = local.nope
}
resource "terraform_data" "pre" {
  bogus = 1
  lifecycle {
    precondition {
      condition     = local.bad != null
      error_message = "x"
    }
  }
}
resource "terraform_data" "prov" {
  bogus = 1
  provisioner "local-exec" {
    command = "echo ${local.bad}"
  }
}
resource "terraform_data" "provconn" {
  bogus = 1
  provisioner "remote-exec" {
    inline = ["x"]
    connection {
      host = local.bad
    }
  }
}
resource "terraform_data" "destroyprov" {
  bogus = 1
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.output}"
  }
}
resource "terraform_data" "failing" {
  count = -1
}
resource "terraform_data" "rtb" {
  bogus = 1
  lifecycle {
    replace_triggered_by = [terraform_data.failing]
  }
}
