variable "o" {
  type = object({ a = number, l = list(number) })
}
