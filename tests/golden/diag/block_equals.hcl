block = {
}
block "x" = 1
