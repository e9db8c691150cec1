known = "yes"

thing {
}
