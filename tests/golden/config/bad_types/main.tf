variable "q1" { type = "string" }
variable "q2" { type = "list" }
variable "q3" { type = "map" }
variable "q4" { type = "number" }
variable "t1" { type = strin }
variable "t2" { type = list(string, number) }
variable "t3" { type = optional(string) }
variable "t4" { type = object({ a = optional(string, 1, 2) }) }
variable "t5" { type = map }
variable "t6" { type = object({ a = optional(number, "x") }) }
variable "t7" { type = list(optional(string)) }
variable "t8" { type = object(string) }
variable "t9" { type = tuple(string) }
variable "t10" { type = set }
variable "t11" { type = any(string) }
variable "t12" { type = list() }
