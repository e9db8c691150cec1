# Logs of the web tier.
resource "aws_s3_bucket" "logs" {
  bucket = "web-logs" # keep in sync with the CDN
  acl    = "private"

  tags = {
    Name = "logs" # shown in the console
    Env  = "dev"
  }

  /* Old objects expire. */
  lifecycle_rule {
    enabled = true
  }
}

module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  azs    = ["eu-west-1a", "eu-west-1b"]
  private_subnets = [
    "10.0.1.0/24", # a
    "10.0.2.0/24", # b
  ]
}

locals {
  name = "web"
}

locals {
  region = "eu-west-1"
}
