# A number small in memory whose text has a hundred million digits.
locals {
  small  = 2
  digits = 1e100000000
}
