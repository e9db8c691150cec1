name = "unterminated
other = 1
