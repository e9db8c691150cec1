a = 
b = )
