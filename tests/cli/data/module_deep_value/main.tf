# A tuple nested 1,000 deep: 2 KB as JSON, about 2 MB as terraform console
# indents it.
locals {
  deep = jsondecode(join("", concat([for i in range(1000) : "["], [for i in range(1000) : "]"])))
}
