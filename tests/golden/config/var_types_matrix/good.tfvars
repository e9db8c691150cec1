lo     = [{ name = "z", port = null }]
ml     = { q = ["1", 2] }
st     = []
nested = { inner = { level = 3 } }
anymap = { a = "x", b = true }
