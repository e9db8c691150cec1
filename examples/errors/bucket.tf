# Deliberate syntax error: an argument without a value.
resource "aws_s3_bucket" "logs" {
  bucket = "example-logs"
  acl    =
}
