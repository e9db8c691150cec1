variable "items" {
  default = ["one", "two", "three"]
}
variable "name" {
  default = "World"
}
locals {
  heredoc = <<EOT
Hello, ${var.name}!
%{ for i, v in var.items ~}
${i}: ${v}
%{ endfor ~}
Done.
EOT
  indented = <<-EOT
    first
      second
    third
  EOT
  stripped = "%{ if var.name != "" }Hi ${var.name}%{ else }nobody%{ endif }"
  escaped  = "$${not} %%{not}"
  nested   = "outer ${"inner ${var.name}"}"
  rendered = templatefile("${path.module}/t.tftpl", { items = var.items, title = "T" })
  file_rel = file("data.txt")
  set_list = fileset(path.module, "*.tftpl")
  hash     = filesha256("data.txt")
  exists   = fileexists("${path.module}/data.txt")
}
