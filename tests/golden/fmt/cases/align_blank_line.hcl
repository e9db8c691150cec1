a = 1
bbbb = 2
   
ccccccc = 3
d = 4
