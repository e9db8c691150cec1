region = "x"
count  = 
