route "eu" "a" {}
route "eu" "b" {}
route "eu" "a" {}
