variable "name" {
  type = string
}
variable "num" {
  type    = number
  default = 1
  validation {
    condition     = var.num < 10
    error_message = "num must be < 10."
  }
}
output "o" {
  value = "${var.name}-${var.num}"
}
