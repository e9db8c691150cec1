variable "num" {
  type = number
}
variable "obj" {
  type = object({ a = string, b = optional(list(number), [9]) })
}
variable "secret" {
  type      = number
  sensitive = true
  default   = 1
}
