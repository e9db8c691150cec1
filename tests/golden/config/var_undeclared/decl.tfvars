variable "declared" {
  default = "x"
}
