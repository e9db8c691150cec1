# An override file may replace the backend or cloud block, but may hold only
# one of each itself.
terraform {
  backend "local" {}
}
