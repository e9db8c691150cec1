# A provisioner that is not built in: validate stops before its walk, with an
# error for each use.
resource "terraform_data" "a" {
  provisioner "zeta" {}
  provisioner "alpha" {}
}
resource "terraform_data" "b" {
  provisioner "zeta" {}
}
