0resource "aws_instance" "web" {
  ami   = var.ami
  count = 2
  tags  = { Name = "web-${count.index}" }
  lifecycle {
    ignore_changes = [tags]
  }
}
