variable "x" { default = 1 }
resource "aws_s3_bucket" "b" { bucket = "n" }
