# A value small in memory whose text is not: eight levels of a tuple
# holding the level below nine times (9^8 strings).
locals {
  small = 2
  l1     = ["laugh", "laugh", "laugh", "laugh", "laugh", "laugh", "laugh", "laugh", "laugh"]
  l2     = [local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1, local.l1]
  l3     = [local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2, local.l2]
  l4     = [local.l3, local.l3, local.l3, local.l3, local.l3, local.l3, local.l3, local.l3, local.l3]
  l5     = [local.l4, local.l4, local.l4, local.l4, local.l4, local.l4, local.l4, local.l4, local.l4]
  l6     = [local.l5, local.l5, local.l5, local.l5, local.l5, local.l5, local.l5, local.l5, local.l5]
  l7     = [local.l6, local.l6, local.l6, local.l6, local.l6, local.l6, local.l6, local.l6, local.l6]
  laughs = [local.l7, local.l7, local.l7, local.l7, local.l7, local.l7, local.l7, local.l7, local.l7]
}
