first = net.cidrs[0]
name  = net["name"]
