fine = true
