module "m" {
  source = "./mod"
  name = "n"
  num = 2
  count = "x"
}
