variable "a" {
  type = "string"
}
variable "b" {
  type = "list"
}
variable "c" {
  type = "map"
}
variable "d" {
  type = list
}
variable "e" {
  type = map
}
variable "f" {
  type = set
}
variable "g" {
  type = "set"
}
variable "h" {
  type = "number"
}
variable "i" {
  type = tuple
}
variable "j" {
  type = "${string}"
}
variable "k" {
  type = list(string)
}
variable "l" {
  type = object
}
