num = "abc"
obj = { b = ["x"] }
secret = "nope"
