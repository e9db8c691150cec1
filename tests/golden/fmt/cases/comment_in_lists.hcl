x = [
  1, # one
  22, # two
  # whole
  333
]
