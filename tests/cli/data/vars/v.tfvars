region = "eu-west-1"
zones  = ["a", "b"]
count  = 3
