# Provisioner blocks (decodeProvisionerBlock) and removed blocks (decodeRemovedBlock,
# addrs.ParseRemoveTarget) as Terraform reads them.
resource "terraform_data" "a" {
  provisioner "local-exec" {
    when       = "destroy"
    on_failure = bogus
    command    = "echo ${var.x} ${self.id} ${count.index} ${each.value}"
    connection {
      host = terraform_data.b.id
    }
    connection {}
    _ {}
    _ {}
    lifecycle {}
    other {}
  }
  provisioner "local-exec" {
    when       = create
    on_failure = "continue"
    command    = "x"
  }
  provisioner "local-exec" {
    when    = later
    command = "x"
  }
  provisioner "puppet" {}
}
removed {
  from = var.a
  lifecycle {
    destroy = var.a
  }
}
removed {
  from = module.m
  connection {}
  provisioner "local-exec" {
    when = destroy
  }
}
removed {
  from = data.x.y
}
removed {
  from = terraform_data.z[0]
}
removed {
  from = module.m[0].x.y
}
removed {
  from = terraform_data.q
  connection {}
  connection {}
  provisioner "local-exec" {
    command = "x"
  }
  provisioner "local-exec" {
    when = destroy
    command = "x"
  }
}
resource "terraform_data" "conn" {
  # With a destroy-time provisioner the resource's own connection block may
  # refer only to the resource too.
  connection {
    host = self.output
    user = var.user
  }
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}
