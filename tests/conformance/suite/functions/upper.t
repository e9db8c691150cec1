# upper() folds case, including non-ASCII letters.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = "STRAßE É"
  tr = "MIXED CASE"
}
