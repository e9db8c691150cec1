variable "x" {}
variable "y" {}
output "xy" { value = "${var.x}/${var.y}" }
