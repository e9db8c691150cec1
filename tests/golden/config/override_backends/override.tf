terraform {
  backend "local" {
    path = "a.tfstate"
  }
  backend "local" {
    path = "b.tfstate"
  }
}

terraform {
  cloud {
    organization = "a"
  }
}

terraform {
  cloud {
    organization = "b"
  }
}
