variable "nn" {
  type     = string
  nullable = false
  default  = "fallback"
}
variable "nn_req" {
  type     = string
  nullable = false
}
variable "nul" {
  type    = string
  default = "fallback"
}
variable "obj" {
  type = object({
    a = optional(string, "dflt")
  })
  default = null
}
