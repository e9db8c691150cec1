# A JSON number with 64 significant digits keeps them all.

result_type = number
result = 3.14159265358979323846264338327950288419716939937510582097494459
