result_type = map(object({
  role  = string
  quota = number
}))
result = {
  alice = { role = "admin", quota = 10240 }
  bob   = { role = "viewer", quota = 10240 }
}
