region = "z"
variable {}
variable "a" "b" {}
