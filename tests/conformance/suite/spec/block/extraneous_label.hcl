settings "extra" {
}
