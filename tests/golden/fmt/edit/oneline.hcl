job "web" { datacenters = ["dc1"] }
empty {}
list = []
obj = {}
