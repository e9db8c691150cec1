block 1 {
}
