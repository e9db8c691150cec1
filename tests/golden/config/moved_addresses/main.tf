# moved blocks' endpoints read as Terraform's addrs.ParseMoveEndpoint reads them.
resource "terraform_data" "a" {}
moved {
  from = var.a
  to   = terraform_data.b
}
moved {
  from = module.x.terraform_data.a
  to   = module.y
}
moved {
  from = module.x[1.5]
  to   = module.y
}
moved {
  from = module.x[true]
  to   = module.y
}
moved {
  from = terraform_data.a[1.5]
  to   = terraform_data.b
}
moved {
  from = terraform_data
  to   = terraform_data.b
}
moved {
  from = terraform_data.a[0].x
  to   = terraform_data.b
}
moved {
  from = terraform_data.a.x
  to   = terraform_data.b
}
moved {
  from = data.x[0]
  to   = terraform_data.b
}
moved {
  from = resource.count.x
  to   = module.m["k"]
}
moved {
  from = ephemeral.e.x
  to   = module.m[1].module.n
}
moved {
  from = module
  to   = terraform_data.b
}
moved {
  from = module.m.module[0]
  to   = terraform_data.b
}
moved {
  from = terraform_data.a[true]
  to   = terraform_data.b
}
moved {
  from = local.x
  to   = self.y
}
