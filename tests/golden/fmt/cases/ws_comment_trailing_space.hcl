a = 1 # c   
# d  
// e 	
