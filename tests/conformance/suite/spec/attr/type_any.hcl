a = [1, "two", true]
b = { k = 1 }
c = null
