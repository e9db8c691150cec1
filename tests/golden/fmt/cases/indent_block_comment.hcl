blk {
/* one
      two
  three */
  a = 1
        /* x */ b = 2
}
