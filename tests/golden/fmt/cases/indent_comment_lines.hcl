blk {
# a
      // b
  x = 1
        # c
}
  # d
