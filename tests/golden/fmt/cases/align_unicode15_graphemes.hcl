x = "a᫁" # c
yy = "bb" # d
z = "क्ष" # e
