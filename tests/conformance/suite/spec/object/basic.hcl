name    = "web"
count   = 3
enabled = true
