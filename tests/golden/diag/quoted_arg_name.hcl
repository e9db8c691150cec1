"name" = 1
