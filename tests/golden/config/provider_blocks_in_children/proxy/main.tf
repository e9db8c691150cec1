provider "terraform" {
}

provider "terraform" {
  alias = "b"
}

provider "terraform" {
  alias = "a"
}

resource "terraform_data" "x" {
}
