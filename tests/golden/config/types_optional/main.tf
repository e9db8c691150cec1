variable "s" {
  type    = string
  default = "hello"
}
variable "n" {
  type    = number
  default = "12.50"
}
variable "b" {
  type    = bool
  default = "true"
}
variable "l" {
  type    = list(number)
  default = [1, "2", 3.5]
}
variable "st" {
  type    = set(string)
  default = ["b", "a", "b", 1]
}
variable "m" {
  type    = map(string)
  default = { z = 1, a = true }
}
variable "t" {
  type    = tuple([string, number, bool])
  default = [1, "2", "false"]
}
variable "o" {
  type = object({
    name    = string
    port    = optional(number, 8080)
    tags    = optional(map(string), {})
    enabled = optional(bool)
    nested = optional(object({
      a = optional(string, "A")
      b = optional(list(string), ["x"])
    }), {})
  })
  default = { name = "svc" }
}
variable "lo" {
  type = list(object({
    k = string
    v = optional(number, 0)
  }))
  default = [{ k = "a" }, { k = "b", v = 2 }]
}
variable "mo" {
  type = map(object({
    x = optional(string, "dx")
  }))
  default = { one = {}, two = { x = "2" } }
}
variable "anyv" {
  type    = any
  default = { a = [1, 2], b = "s" }
}
variable "notype" {
  default = [1, "a"]
}
variable "la" {
  type    = list(any)
  default = [1, "a"]
}
variable "ma" {
  type    = map(any)
  default = { a = 1, b = "x" }
}
variable "nulldef" {
  type    = string
  default = null
}
variable "legacy_list" {
  type    = list
  default = ["a"]
}
variable "legacy_map" {
  type    = map
  default = { a = 1 }
}
