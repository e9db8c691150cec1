# Validation details: quoted depends_on references read as references, an
# argument a built-in resource type does not take is reported without its
# references being checked, a rule's error message evaluated even when its
# condition's references fail.
resource "terraform_data" "x" {}
output "quoted" {
  value      = 1
  depends_on = ["terraform_data.nope", "terraform_data.x"]
}
resource "terraform_data" "bogus" {
  bogus = module.nope.out
}
output "rule" {
  value = 1
  precondition {
    condition     = each.value
    error_message = null
  }
}
