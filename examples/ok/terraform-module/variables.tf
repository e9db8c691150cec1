variable "name" {
  description = "Name prefix for every resource in this module."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{2,30}$", var.name))
    error_message = "The name must be 3 to 31 lowercase letters, digits or dashes."
  }
}

variable "cidr_block" {
  description = "Address range of the VPC."
  type        = string
  default     = "10.20.0.0/16"
}

variable "availability_zones" {
  description = "Zones to spread the subnets over."
  type        = list(string)
  default     = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
}

variable "tags" {
  description = "Extra tags merged into every resource's tags."
  type        = map(string)
  default     = {}
}

variable "instance" {
  type = object({
    type  = string
    count = optional(number, 1)
    disks = optional(list(object({ size = number, kind = string })), [])
  })
  default = {
    type = "t3.micro"
  }
}
