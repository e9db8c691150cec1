rule {
  port = 1
}
rule {
  port = "x"
}
