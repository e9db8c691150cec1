a = 
b = "x
