route "eu" "a" {
  target = "eu-a"
}
route "us" "a" {
  target = "us-a"
}
route "eu" "b" {
  target = "eu-b"
}
