resource {
}
module {
}
variable "x" {
  description = [1]
}
