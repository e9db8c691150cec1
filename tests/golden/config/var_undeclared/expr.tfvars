declared = upper("x")
