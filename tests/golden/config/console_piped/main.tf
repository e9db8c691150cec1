locals {
  s = "a\nb"
}
