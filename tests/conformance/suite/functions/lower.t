# lower() folds case, including non-ASCII letters.

result_type = object({
  lit = string
  tr = string
})
result = {
  lit = "hello àé"
  tr = "ça va"
}
