a   =  "x
  b   =  1
    c {
