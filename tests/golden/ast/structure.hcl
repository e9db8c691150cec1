# Attributes, blocks with labels, one-line blocks, nested bodies.
name    = "web"
count   = 3
enabled = true
nothing = null

resource "aws_instance" web {
  ami = "ami-123"

  tags { Name = "web" }

  ebs_block_device {
    device_name = "/dev/sdb"
    volume_size = 100
  }
}

empty {}
