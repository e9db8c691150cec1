variable "name" {
  type    = string
  default = "web"
}

resource "null_resource" "this" {
  triggers = {
    name = var.name
    ids  = join(",", [for i in range(3) : "${var.name}-${i}"])
  }
}
