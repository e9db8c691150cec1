block "${x}" {
}
