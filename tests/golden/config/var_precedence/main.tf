variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "d" { default = "default" }
variable "e" { default = "default" }
variable "f" { default = "default" }
variable "g" { default = "default" }
variable "h" {
  type    = list(string)
  default = []
}
