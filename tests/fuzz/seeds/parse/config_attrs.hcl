0a = 1
b = "x${y}z"
