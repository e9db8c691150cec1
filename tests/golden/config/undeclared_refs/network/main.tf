output "vpc" { value = "vpc-1" }
