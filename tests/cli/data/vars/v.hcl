region = "ap-south-1"
count  = 1 + 1
