# The provider a resource type implies (its prefix before "_") must have a valid
# local name; Terraform checks it once the module has loaded without errors.
resource "aws-_thing" "a" {}
data "Bad-_x" "b" {}
resource "x--y_z" "d" {}
resource "_y" "e" {}
resource "Upper_case" "f" {}
resource "ok" "g" {
  provider = terraform
}
