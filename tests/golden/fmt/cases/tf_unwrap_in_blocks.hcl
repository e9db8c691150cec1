resource "r" "n" {
  a = "${x}"
  nested {
    b = "${y}"
    dynamic "d" {
      content {
        c = "${z}"
      }
    }
  }
  o = {
    k = "${v}"
  }
}
