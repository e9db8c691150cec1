# Blocks nest by type and labels. At the top level, block types that
# interleave make the document an array of objects, so that the order is
# kept; inside a block each type stands where its first block stood.
terraform {
  required_version = ">= 1.0"
}

variable "region" {
  type    = string
  default = "us-east-1"
}

resource "aws_security_group" "sg" {
  name = "sg"
  ingress {
    from_port = 80
  }
  egress {
    from_port = 0
  }
  ingress {
    from_port = 443
  }
  dynamic "ingress" {
    for_each = var.ports
    content {
      from_port = ingress.value
    }
  }
}

resource "aws_instance" "a" {}
resource "aws_instance" "b" {}
resource "aws_s3_bucket" "a" {}
resource "aws_instance" "a" {}

variable "zone" {}

locals {
  x = 1
}
locals {
  y = 2
}
