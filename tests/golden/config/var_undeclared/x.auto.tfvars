undeclared_two   = 2
undeclared_three = 3
undeclared_four  = 4
