module "m" {
  source = "./m"
  inputs = {
    a = 1
    b = [1, 2,
  }
}
