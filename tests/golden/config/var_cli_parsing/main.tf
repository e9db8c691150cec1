variable "str" { type = string }
variable "num" { type = number }
variable "bool" { type = bool }
variable "lst" { type = list(string) }
variable "mp" { type = map(number) }
variable "anyt" { type = any }
variable "untyped" {}
variable "obj" { type = object({ a = number }) }
