block {
} x = 1
