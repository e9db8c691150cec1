terraform {
  required_version = ">= 1.3"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

locals {
  common_tags = merge(var.tags, {
    Module    = "network"
    Name      = var.name
    ManagedBy = "terraform"
  })

  # One /20 per zone, carved from the VPC's range.
  subnets = {
    for index, zone in var.availability_zones :
    zone => cidrsubnet(var.cidr_block, 4, index)
  }
}

resource "aws_vpc" "this" {
  cidr_block           = var.cidr_block
  enable_dns_hostnames = true
  tags                 = local.common_tags
}

resource "aws_subnet" "private" {
  for_each = local.subnets

  vpc_id            = aws_vpc.this.id
  cidr_block        = each.value
  availability_zone = each.key
  tags              = merge(local.common_tags, { Tier = "private", Zone = each.key })
}

resource "aws_security_group" "web" {
  name_prefix = "${var.name}-web-"
  vpc_id      = aws_vpc.this.id

  dynamic "ingress" {
    for_each = toset([80, 443])
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_instance" "web" {
  count = var.instance.count

  ami           = data.aws_ami.ubuntu.id
  instance_type = var.instance.type
  subnet_id     = values(aws_subnet.private)[count.index % length(aws_subnet.private)].id

  user_data = <<-EOT
    #!/bin/sh
    echo "${var.name}-${count.index}" > /etc/hostname
    %{ for disk in var.instance.disks ~}
    echo "disk ${disk.kind}: ${disk.size} GiB"
    %{ endfor ~}
  EOT

  tags = merge(local.common_tags, {
    Name = format("%s-web-%02d", var.name, count.index + 1)
  })
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"]
  }
}
