known = "yes"
other = "no"
