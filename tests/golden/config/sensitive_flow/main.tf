variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
variable "creds" {
  type = object({ user = string, pass = string })
  default = { user = "admin", pass = "pw" }
  sensitive = true
}
variable "plain" {
  default = ["a", "b"]
}
locals {
  pw_len    = length(var.password)
  upper_pw  = upper(var.password)
  mixed     = [var.plain[0], var.password]
  mapped    = { user = var.creds.user, n = 1 }
  revealed  = nonsensitive(var.password)
  cond      = var.password == "x" ? "yes" : "no"
  in_tmpl   = "pw=${var.password}"
  marked    = sensitive({ a = 1 })
}
output "pw" {
  value     = var.password
  sensitive = true
}
