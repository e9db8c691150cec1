variable "o" {
  type    = object({ a = number, l = list(number) })
  default = { a = 1, l = [1, "x"] }
}
variable "m" {
  type    = map(object({ n = number }))
  default = { k = { n = "bad" } }
}
