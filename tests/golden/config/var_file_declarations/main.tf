variable "region" {
  default = "d"
}
