blk { # open
  a = 1 # one
  list = [ # l
    1, # a
    200, # b
  ] # close
} # end
