# templatestring takes its first argument as an expression: a reference to
# a string defined elsewhere is rendered; a template written in place, or
# any other expression, is refused by how it is written (and not
# evaluated); errors evaluating a reference are folded into one message.
variable "t" {
  type    = string
  default = "Hello, $${name}!"
}

variable "n" {
  type    = number
  default = 3
}

locals {
  tpl  = "Hi $${name}"
  tpls = ["a $${name}", "b $${name}"]
  obj  = { greeting = "Yo $${name}", list = ["x $${name}"] }
  idx  = 1
  multi = <<-EOT
    Dear $${name},
    %%{ for i in items ~}
    - $${i}
    %%{ endfor ~}
  EOT
}
