output "vpc_id" {
  description = "ID of the VPC."
  value       = aws_vpc.this.id
}

output "subnet_ids" {
  description = "Private subnet IDs by availability zone."
  value       = { for zone, subnet in aws_subnet.private : zone => subnet.id }
}

output "instance_addresses" {
  value     = aws_instance.web[*].private_ip
  sensitive = false
}

output "summary" {
  value = length(aws_instance.web) == 0 ? "no instances" : "${length(aws_instance.web)} instance(s) in ${var.name}"
}
