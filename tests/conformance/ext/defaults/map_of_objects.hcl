users = {
  alice = { role = "admin" }
  bob   = {}
}
