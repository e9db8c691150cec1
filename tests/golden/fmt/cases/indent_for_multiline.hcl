x = [
for k, v in m :
k
if v
]
y = {
for k, v in m :
k => v...
}
