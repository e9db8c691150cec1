# A value of a few megabytes in memory whose text takes 729 MB: a string
# of one million digits, held 9 x 9 x 9 times.
locals {
  small   = 2
  s       = format("%01000000d", 0)
  l1      = [local.s, local.s, local.s, local.s, local.s, local.s, local.s, local.s, local.s]
  l2      = [local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1]
  strings = [local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2]
}
