route "eu" {}
