variable "lo" {
  type = list(object({ name = string, port = optional(number, 80), tags = optional(map(string), {}) }))
  default = [{ name = "a" }, { name = "b", port = 8080, tags = { x = "y" } }]
}
variable "ml" {
  type    = map(list(number))
  default = { a = [1, 2], b = [] }
}
variable "st" {
  type    = set(string)
  default = ["b", "a", "b"]
}
variable "tp" {
  type    = tuple([string, number, bool])
  default = ["x", "1", "true"]
}
variable "nested" {
  type = object({
    inner = optional(object({
      enabled = optional(bool, true)
      level   = optional(number)
    }), {})
    list = optional(list(string), ["d"])
  })
  default = {}
}
variable "anymap" {
  type    = map(any)
  default = { a = 1, b = 2 }
}
variable "n" {
  type    = number
  default = 1
}
