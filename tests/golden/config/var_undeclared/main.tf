variable "declared" {
  default = "d"
}
