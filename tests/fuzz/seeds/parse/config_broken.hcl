0a = 1 +
b = "unterminated
c {
