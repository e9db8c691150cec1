resource "terraform_data" "x" {
}
