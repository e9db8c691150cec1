resource "aws_s3_bucket" "c" { bucket = "m" }
locals { l = [1, 2] }
