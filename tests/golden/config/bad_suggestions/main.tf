variabl "x" {}
local {
  a = 1
}
resource "terraform_data" "x" {
  lifecycle {
    create_before_destory = true
  }
}
variable "dup" {
  default = 1
  default = 2
}
output "x" {
  valeu = 1
}
module "m" {
  sorce = "./m"
}
