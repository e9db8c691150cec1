provider "terraform" {
  foo = 1
}
