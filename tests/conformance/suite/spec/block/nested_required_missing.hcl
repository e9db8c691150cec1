outer {
}
