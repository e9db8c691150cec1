resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "many" {
  count = 2
  input = count.index
}
variable "req" {
  type = string
}
variable "req_list" {
  type = list(number)
}
locals {
  from_res  = terraform_data.a.output
  wrapped   = [terraform_data.a.output, 1, "k"]
  obj       = { known = "v", unknown = terraform_data.a.id }
  len_many  = length(terraform_data.many)
  cond      = var.req == "" ? "empty" : "set"
  tmpl      = "id-${terraform_data.a.id}"
  ts        = plantimestamp()
}
