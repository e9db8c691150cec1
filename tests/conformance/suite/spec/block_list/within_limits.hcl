rule {
  n = 1
}
rule {
  n = 2
}
